/**
 * OPA's `time.*` builtins over nanoseconds since the epoch (Go's `time.Time`), with IANA time zones through
 * Intl. Nanosecond arithmetic uses BigInt (values beyond 2^53 keep their digits).
 */

import {
  DAYS,
  DurationSyntaxError,
  type Fields,
  fieldsAt,
  formatLayout,
  fromGoString,
  GoTimeError,
  loadLocation,
  NAMED_LAYOUTS,
  parseLayout,
  scanDuration,
  toGoString,
  type Zone,
} from "../../go/time/index.js";
import { toRegoString } from "../convert.js";
import { BuiltinError } from "../errors.js";
import type { Value } from "../values.js";
import { def, str } from "./registry.js";

const NS_PER_MS = 1_000_000n;
/** Go's time.Time range for UnixNano (years 1678–2262). */
const MAX_NS = 9223372036854775807n;

function big(n: number): bigint {
  return BigInt(
    Number.isInteger(n)
      ? String(n).includes("e")
        ? BigInt(Math.trunc(n)).toString()
        : String(n)
      : Math.trunc(n).toString(),
  );
}
function toNum(b: bigint): number {
  return Number(b);
}

/** The zone of an OPA `tz` argument ("" and "Local" are UTC, as OPA on a UTC host). */
function zoneOf(tz: string): Zone {
  return goTime(() => loadLocation(tz === "Local" ? "" : tz));
}

/** Runs a Go time function, its errors as builtin errors. */
function goTime<R>(f: () => R): R {
  try {
    return f();
  } catch (e) {
    if (e instanceof GoTimeError) throw new BuiltinError(e.message);
    throw e;
  }
}

/** ns and tz of a `ns` or `[ns, tz]` argument. */
function nsArg(name: string, v: Value): { ns: bigint; tz: string; layout?: string } {
  if (typeof v === "number") return { ns: big(v), tz: "UTC" };
  if (Array.isArray(v) && (v.length === 2 || v.length === 3) && typeof v[0] === "number") {
    if (typeof v[1] !== "string")
      throw new BuiltinError(
        `\`${name}\` expects 2nd element of \`ns\` to be a \`string\`. Got \`${toRegoString(v[1] as Value, false)}\` instead`,
      );
    if (v.length === 3 && typeof v[2] !== "string") {
      throw new BuiltinError(
        `\`${name}\` expects 3rd element of \`ns\` to be a \`string\`. Got \`${toRegoString(v[2] as Value, false)}\` instead`,
      );
    }
    return { ns: big(v[0] as number), tz: v[1] as string, layout: v[2] as string | undefined };
  }
  throw new BuiltinError(
    `\`${name}\` expects \`ns\` to be a \`number\` or \`array[number, string]\`. Got \`${toRegoString(v, false)}\` instead`,
  );
}

function civil(ns: bigint, tz: string): Fields {
  return fieldsAt(ns, zoneOf(tz));
}

def("time.now_ns", 0, (_a, ctx) => toNum(BigInt(Math.floor(ctx.now())) * NS_PER_MS));
def("time.date", 1, (a) => {
  const { ns, tz } = nsArg("time.date", a[0] as Value);
  const c = civil(ns, tz);
  return Object.freeze([c.year, c.month, c.day]);
});
def("time.clock", 1, (a) => {
  const { ns, tz } = nsArg("time.clock", a[0] as Value);
  const c = civil(ns, tz);
  return Object.freeze([c.hour, c.minute, c.second]);
});
def("time.weekday", 1, (a) => {
  const { ns, tz } = nsArg("time.weekday", a[0] as Value);
  return DAYS[civil(ns, tz).wday] as string;
});
def("time.add_date", 4, (a) => {
  const { ns } = nsArg("time.add_date", a[0] as Value);
  for (let i = 1; i < 4; i++)
    if (typeof a[i] !== "number")
      throw new BuiltinError(
        `\`time.add_date\` expects numeric argument. Got \`${toRegoString(a[i] as Value, false)}\` instead`,
      );
  const [y, m, d] = [a[1] as number, a[2] as number, a[3] as number];
  const c = civil(ns, "UTC");
  const yr = c.year + y;
  if (Math.abs(yr) > 300000) return undefined;
  const dt = new Date(0);
  dt.setUTCFullYear(yr, c.month - 1 + m, c.day + d);
  dt.setUTCHours(c.hour, c.minute, c.second, 0);
  const out = BigInt(dt.getTime()) * NS_PER_MS + BigInt(c.nsec);
  if (out > MAX_NS || out < -MAX_NS - 1n) return undefined;
  return toNum(out);
});
def("time.diff", 2, (a) => {
  const x = nsArg("time.diff", a[0] as Value);
  const y = nsArg("time.diff", a[1] as Value);
  let [t1, t2] = [x, y];
  if (t1.ns > t2.ns) [t1, t2] = [t2, t1];
  const c1 = civil(t1.ns, t1.tz);
  const c2 = civil(t2.ns, t2.tz);
  let year = c2.year - c1.year;
  let month = c2.month - c1.month;
  let day = c2.day - c1.day;
  let hour = c2.hour - c1.hour;
  let min = c2.minute - c1.minute;
  let sec = c2.second - c1.second;
  let nsec = c2.nsec - c1.nsec;
  if (nsec < 0) {
    nsec += 1e9;
    sec--;
  }
  if (sec < 0) {
    sec += 60;
    min--;
  }
  if (min < 0) {
    min += 60;
    hour--;
  }
  if (hour < 0) {
    hour += 24;
    day--;
  }
  if (day < 0) {
    const daysIn = new Date(Date.UTC(c1.year, c1.month, 0)).getUTCDate();
    day += daysIn;
    month--;
  }
  if (month < 0) {
    month += 12;
    year--;
  }
  return Object.freeze([year, month, day, hour, min, sec]);
});

function parseFrac(s: string): number {
  return Number(`${s}000000000`.slice(0, 9));
}

/** Parses RFC 3339 (with optional fractional seconds) into ns. */
export function parseRfc3339(s: string): bigint {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/.exec(
    s,
  );
  if (!m)
    throw new BuiltinError(`parsing time ${JSON.stringify(s)} as "2006-01-02T15:04:05Z07:00": cannot parse`);
  const [, Y, Mo, D, h, mi, se, frac, tz] = m as unknown as string[];
  const mo = Number(Mo);
  const dd = Number(D);
  if (mo < 1 || mo > 12 || dd < 1 || dd > 31 || Number(h) > 23 || Number(mi) > 59 || Number(se) > 59) {
    throw new BuiltinError(`parsing time ${JSON.stringify(s)}: out of range`);
  }
  let ms = Date.UTC(Number(Y), mo - 1, dd, Number(h), Number(mi), Number(se));
  if (new Date(ms).getUTCDate() !== dd)
    throw new BuiltinError(`parsing time ${JSON.stringify(s)}: day out of range`);
  if (tz !== undefined && tz.toUpperCase() !== "Z") {
    const sign = tz.startsWith("-") ? -1 : 1;
    ms -= sign * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(4, 6))) * 60000;
  }
  return BigInt(ms) * NS_PER_MS + BigInt(frac ? parseFrac(frac) : 0);
}

def("time.parse_rfc3339_ns", 1, (a) => {
  const v = a[0] as Value;
  if (typeof v !== "string")
    throw new BuiltinError(
      `\`time.parse_rfc3339_ns\` expects string argument. Got \`${toRegoString(v, false)}\` instead`,
    );
  return toNum(parseRfc3339(v));
});

def("time.format", 1, (a) => {
  const { ns, tz, layout } = nsArg("time.format", a[0] as Value);
  const l = layout === undefined || layout === "" ? "RFC3339Nano" : layout;
  const fields = civil(ns, tz);
  return fromGoString(formatLayout(fields, toGoString(NAMED_LAYOUTS[l] ?? l)));
});

def("time.parse_ns", 2, (a) => {
  const layout = str("time.parse_ns", a, 0);
  const v = a[1] as Value;
  if (typeof v !== "string")
    throw new BuiltinError(
      `\`time.parse_ns\` expects string argument. Got \`${toRegoString(v, false)}\` instead`,
    );
  const goLayout = toGoString(NAMED_LAYOUTS[layout] ?? layout);
  return toNum(goTime(() => parseLayout(toGoString(v), goLayout)).ns);
});

/**
 * Go's time.ParseDuration, in ns, as a float sum of Go's terms (OPA's number), rounded. Errors keep this
 * builtin's wording: `time: invalid duration "…"` (nothing after the sign), `missing unit` (the failing
 * term is digits and a point only), else `unknown unit`, each naming the duration as JSON quotes it.
 */
function parseDurationNs(s: string): number {
  let scanned: ReturnType<typeof scanDuration>;
  try {
    scanned = scanDuration(toGoString(s));
  } catch (e) {
    if (!(e instanceof DurationSyntaxError)) throw e;
    const problem =
      e.rest === ""
        ? "invalid duration"
        : /^\d*\.?\d*$/.test(e.rest)
          ? "missing unit in duration"
          : "unknown unit in duration";
    throw new BuiltinError(`time: ${problem} ${JSON.stringify(s)}`);
  }
  if (scanned.terms.length === 0) return 0;
  let total = 0;
  for (const t of scanned.terms) total += Number(t.number) * Number(t.unitNs);
  return scanned.negative ? -Math.round(total) : Math.round(total);
}

def("time.parse_duration_ns", 1, (a) => {
  const v = a[0] as Value;
  if (typeof v !== "string")
    throw new BuiltinError(
      `\`time.parse_duration_ns\` expects string argument. Got \`${toRegoString(v, false)}\` instead`,
    );
  return parseDurationNs(v);
});
