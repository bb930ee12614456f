/**
 * OPA's `time.*` builtins over nanoseconds since the epoch (Go's `time.Time`), with IANA time zones through
 * Intl. Nanosecond arithmetic uses BigInt (values beyond 2^53 keep their digits).
 */
import { BuiltinError } from "../errors.js";
import { toRegoString, type Value } from "../values.js";
import { def, str } from "./registry.js";

const NS_PER_MS = 1_000_000n;
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
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

function offsetMinutes(tz: string, ms: number): number {
  if (tz === "" || tz === "UTC") return 0;
  if (tz === "Local") return 0;
  try {
    const f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    const parts = Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
    const asUtc = Date.UTC(
      Number(parts.year),
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour),
      Number(parts.minute),
      Number(parts.second),
    );
    return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60000);
  } catch {
    throw new BuiltinError(`unknown time zone ${tz}`);
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

interface Civil {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanos: number;
  weekday: number;
  offset: number;
  yday: number;
}

function civil(ns: bigint, tz: string): Civil {
  const msFloor = ns >= 0n ? ns / NS_PER_MS : -((-ns + NS_PER_MS - 1n) / NS_PER_MS);
  const ms = Number(msFloor);
  const off = offsetMinutes(tz, ms);
  const d = new Date(ms + off * 60000);
  const nanos = Number(ns - msFloor * NS_PER_MS) + d.getUTCMilliseconds() * 1_000_000;
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    nanos,
    weekday: d.getUTCDay(),
    offset: off,
    yday: Math.floor((d.getTime() - start) / 86400000) + 1,
  };
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
  return DAYS[civil(ns, tz).weekday] as string;
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
  const out = BigInt(dt.getTime()) * NS_PER_MS + BigInt(c.nanos);
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
  let nsec = c2.nanos - c1.nanos;
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

const LAYOUTS: Record<string, string> = {
  ANSIC: "Mon Jan _2 15:04:05 2006",
  UnixDate: "Mon Jan _2 15:04:05 MST 2006",
  RubyDate: "Mon Jan 02 15:04:05 -0700 2006",
  RFC822: "02 Jan 06 15:04 MST",
  RFC822Z: "02 Jan 06 15:04 -0700",
  RFC850: "Monday, 02-Jan-06 15:04:05 MST",
  RFC1123: "Mon, 02 Jan 2006 15:04:05 MST",
  RFC1123Z: "Mon, 02 Jan 2006 15:04:05 -0700",
  RFC3339: "2006-01-02T15:04:05Z07:00",
  RFC3339Nano: "2006-01-02T15:04:05.999999999Z07:00",
  Kitchen: "3:04PM",
  Stamp: "Jan _2 15:04:05",
  StampMilli: "Jan _2 15:04:05.000",
  StampMicro: "Jan _2 15:04:05.000000",
  StampNano: "Jan _2 15:04:05.000000000",
  DateTime: "2006-01-02 15:04:05",
  DateOnly: "2006-01-02",
  TimeOnly: "15:04:05",
};

const TOKENS = [
  "January",
  "Monday",
  "2006",
  "Z07:00",
  "-07:00",
  "Z0700",
  "-0700",
  "Jan",
  "Mon",
  "MST",
  "01",
  "02",
  "_2",
  "15",
  "03",
  "04",
  "05",
  "06",
  "PM",
  "pm",
  "-07",
  "Z07",
  "1",
  "2",
  "3",
  "4",
  "5",
];

function tokenize(layout: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < layout.length) {
    if (layout[i] === "." || layout[i] === ",") {
      const m = /^[.,](0+|9+)/.exec(layout.slice(i));
      if (m && !/\d/.test(layout[i + m[0].length] ?? "")) {
        out.push(m[0]);
        i += m[0].length;
        continue;
      }
    }
    const t = TOKENS.find((tk) => layout.startsWith(tk, i));
    if (t) {
      out.push(`\u0000${t}`);
      i += t.length;
    } else {
      out.push(layout[i] as string);
      i++;
    }
  }
  return out;
}

function pad2(n: number, w = 2): string {
  return String(n).padStart(w, "0");
}

function formatLayout(ns: bigint, tz: string, layout: string): string {
  const c = civil(ns, tz);
  let out = "";
  for (const tok of tokenize(layout)) {
    if (tok.startsWith(".") || tok.startsWith(",")) {
      const digits = tok.length - 1;
      const frac = pad2(c.nanos, 9).slice(0, digits);
      if (tok[1] === "9") {
        const trimmed = pad2(c.nanos, 9).replace(/0+$/, "").slice(0, digits);
        out += trimmed ? `${tok[0]}${trimmed}` : "";
      } else out += `${tok[0]}${frac}`;
      continue;
    }
    if (!tok.startsWith("\u0000")) {
      out += tok;
      continue;
    }
    const off = c.offset;
    const sign = off < 0 ? "-" : "+";
    const oh = pad2(Math.floor(Math.abs(off) / 60));
    const om = pad2(Math.abs(off) % 60);
    switch (tok.slice(1)) {
      case "2006":
        out += pad2(c.year, 4);
        break;
      case "06":
        out += pad2(c.year % 100);
        break;
      case "01":
        out += pad2(c.month);
        break;
      case "1":
        out += String(c.month);
        break;
      case "January":
        out += MONTHS[c.month - 1];
        break;
      case "Jan":
        out += (MONTHS[c.month - 1] as string).slice(0, 3);
        break;
      case "02":
        out += pad2(c.day);
        break;
      case "_2":
        out += String(c.day).padStart(2, " ");
        break;
      case "2":
        out += String(c.day);
        break;
      case "Monday":
        out += DAYS[c.weekday];
        break;
      case "Mon":
        out += (DAYS[c.weekday] as string).slice(0, 3);
        break;
      case "15":
        out += pad2(c.hour);
        break;
      case "03":
        out += pad2(c.hour % 12 === 0 ? 12 : c.hour % 12);
        break;
      case "3":
        out += String(c.hour % 12 === 0 ? 12 : c.hour % 12);
        break;
      case "04":
        out += pad2(c.minute);
        break;
      case "4":
        out += String(c.minute);
        break;
      case "05":
        out += pad2(c.second);
        break;
      case "5":
        out += String(c.second);
        break;
      case "PM":
        out += c.hour >= 12 ? "PM" : "AM";
        break;
      case "pm":
        out += c.hour >= 12 ? "pm" : "am";
        break;
      case "MST":
        out += off === 0 ? "UTC" : `${sign}${oh}${om}`;
        break;
      case "Z07:00":
        out += off === 0 ? "Z" : `${sign}${oh}:${om}`;
        break;
      case "-07:00":
        out += `${sign}${oh}:${om}`;
        break;
      case "Z0700":
        out += off === 0 ? "Z" : `${sign}${oh}${om}`;
        break;
      case "-0700":
        out += `${sign}${oh}${om}`;
        break;
      case "Z07":
        out += off === 0 ? "Z" : `${sign}${oh}`;
        break;
      case "-07":
        out += `${sign}${oh}`;
        break;
      default:
        out += tok.slice(1);
    }
  }
  return out;
}

def("time.format", 1, (a) => {
  const { ns, tz, layout } = nsArg("time.format", a[0] as Value);
  const l = layout === undefined || layout === "" ? LAYOUTS.RFC3339Nano : (LAYOUTS[layout] ?? layout);
  return formatLayout(ns, tz, l as string);
});

function parseLayout(layout: string, value: string): bigint {
  let i = 0;
  let year = 1;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let nanos = 0;
  let off = 0;
  let pm: boolean | undefined;
  const fail = (): never => {
    throw new BuiltinError(
      `parsing time ${JSON.stringify(value)} as ${JSON.stringify(layout)}: cannot parse`,
    );
  };
  const digits = (min: number, max: number): number => {
    const m = new RegExp(`^\\d{${min},${max}}`).exec(value.slice(i));
    if (!m) fail();
    i += (m as RegExpExecArray)[0].length;
    return Number((m as RegExpExecArray)[0]);
  };
  const word = (list: string[], len?: number): number => {
    for (let j = 0; j < list.length; j++) {
      const w = len ? (list[j] as string).slice(0, len) : (list[j] as string);
      if (value.slice(i, i + w.length).toLowerCase() === w.toLowerCase()) {
        i += w.length;
        return j;
      }
    }
    return fail();
  };
  const tzOff = (colon: boolean, z: boolean, minutes = true): void => {
    if (z && (value[i] === "Z" || value[i] === "z")) {
      i++;
      return;
    }
    const sign = value[i] === "-" ? -1 : value[i] === "+" ? 1 : fail();
    i++;
    const h = digits(2, 2);
    let mm = 0;
    if (minutes) {
      if (colon) {
        if (value[i] !== ":") fail();
        i++;
      }
      mm = digits(2, 2);
    }
    off = sign * (h * 60 + mm);
  };
  for (const tok of tokenize(layout)) {
    if (tok.startsWith(".") || tok.startsWith(",")) {
      if (value[i] === "." || value[i] === ",") {
        i++;
        const m = /^\d+/.exec(value.slice(i));
        if (m) {
          nanos = parseFrac(m[0]);
          i += m[0].length;
        }
      } else if (tok[1] === "0") fail();
      continue;
    }
    if (!tok.startsWith("\u0000")) {
      if (value[i] !== tok) fail();
      i++;
      // a fractional second not in the layout after seconds
      continue;
    }
    switch (tok.slice(1)) {
      case "2006":
        year = digits(4, 4);
        break;
      case "06":
        year = digits(2, 2);
        year += year >= 69 ? 1900 : 2000;
        break;
      case "01":
        month = digits(2, 2);
        break;
      case "1":
        month = digits(1, 2);
        break;
      case "January":
        month = word(MONTHS) + 1;
        break;
      case "Jan":
        month = word(MONTHS, 3) + 1;
        break;
      case "02":
        day = digits(2, 2);
        break;
      case "_2":
        if (value[i] === " ") i++;
        day = digits(1, 2);
        break;
      case "2":
        day = digits(1, 2);
        break;
      case "Monday":
        word(DAYS);
        break;
      case "Mon":
        word(DAYS, 3);
        break;
      case "15":
        hour = digits(1, 2);
        break;
      case "03":
      case "3":
        hour = digits(tok === "\u000003" ? 2 : 1, 2);
        break;
      case "04":
      case "4":
        minute = digits(tok === "\u000004" ? 2 : 1, 2);
        break;
      case "05":
      case "5":
        second = digits(tok === "\u000005" ? 2 : 1, 2);
        if (value[i] === "." && /\d/.test(value[i + 1] ?? "")) {
          i++;
          const m = /^\d+/.exec(value.slice(i)) as RegExpExecArray;
          nanos = parseFrac(m[0]);
          i += m[0].length;
        }
        break;
      case "PM":
      case "pm": {
        const s = value.slice(i, i + 2).toUpperCase();
        if (s !== "AM" && s !== "PM") fail();
        pm = s === "PM";
        i += 2;
        break;
      }
      case "MST": {
        const m = /^[A-Z]{3,4}/.exec(value.slice(i));
        if (!m) fail();
        i += (m as RegExpExecArray)[0].length;
        break;
      }
      case "Z07:00":
        tzOff(true, true);
        break;
      case "-07:00":
        tzOff(true, false);
        break;
      case "Z0700":
        tzOff(false, true);
        break;
      case "-0700":
        tzOff(false, false);
        break;
      case "Z07":
        tzOff(false, true, false);
        break;
      case "-07":
        tzOff(false, false, false);
        break;
      default:
        fail();
    }
  }
  if (i !== value.length)
    throw new BuiltinError(
      `parsing time ${JSON.stringify(value)}: extra text: ${JSON.stringify(value.slice(i))}`,
    );
  if (pm !== undefined) {
    if (hour === 12) hour = 0;
    if (pm) hour += 12;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
    throw new BuiltinError(`parsing time ${JSON.stringify(value)}: out of range`);
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  if (d.getUTCDate() !== day)
    throw new BuiltinError(`parsing time ${JSON.stringify(value)}: day out of range`);
  return (BigInt(d.getTime()) - BigInt(off) * 60000n) * NS_PER_MS + BigInt(nanos);
}

def("time.parse_ns", 2, (a) => {
  const layout = str("time.parse_ns", a, 0);
  const v = a[1] as Value;
  if (typeof v !== "string")
    throw new BuiltinError(
      `\`time.parse_ns\` expects string argument. Got \`${toRegoString(v, false)}\` instead`,
    );
  return toNum(parseLayout(LAYOUTS[layout] ?? layout, v));
});

const UNITS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** Go's time.ParseDuration, in ns. */
export function parseDuration(s: string): number {
  const orig = s;
  let neg = false;
  if (s.startsWith("-") || s.startsWith("+")) {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return 0;
  if (s === "") throw new BuiltinError(`time: invalid duration ${JSON.stringify(orig)}`);
  let total = 0;
  const re = /^(\d*\.?\d*)(ns|us|µs|μs|ms|s|m|h)/;
  while (s.length > 0) {
    const m = re.exec(s);
    if (!m || m[1] === "" || m[1] === ".") {
      if (/^\d*\.?\d*$/.test(s))
        throw new BuiltinError(`time: missing unit in duration ${JSON.stringify(orig)}`);
      throw new BuiltinError(`time: unknown unit in duration ${JSON.stringify(orig)}`);
    }
    total += Number(m[1]) * (UNITS[m[2] as string] as number);
    s = s.slice(m[0].length);
  }
  return neg ? -Math.round(total) : Math.round(total);
}

def("time.parse_duration_ns", 1, (a) => {
  const v = a[0] as Value;
  if (typeof v !== "string")
    throw new BuiltinError(
      `\`time.parse_duration_ns\` expects string argument. Got \`${toRegoString(v, false)}\` instead`,
    );
  return parseDuration(v);
});
