/**
 * The `time` module as go.starlark.net provides it (lib/time): durations and instants with Go's
 * layouts ("2006-01-02T15:04:05Z07:00"), IANA time zones (via Intl), parse_time, parse_duration,
 * from_timestamp, time(...), now(). Instants are exact to the nanosecond. `now()` reads the host clock
 * unless the host sets a thread local "time.now" (a function returning Unix nanoseconds as a bigint),
 * e.g. to make renders deterministic; from_timestamp gives UTC (no access to the host's time zone).
 */
import { toInt, toStr, unpackArgs, unpackPositional } from "../args.js";
import { T, type Token } from "../syntax.js";
import { decodeRune, type Rune } from "../utf8.js";
import {
  Builtin,
  Float,
  fail,
  isInt,
  type Key,
  Module,
  normBig,
  StarlarkError,
  SValue,
  typeName,
  type Value,
} from "../values.js";

const NS = 1_000_000_000n;

// ---- durations ----

const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  "\xc2\xb5s": 1000n, // U+00B5 micro sign (UTF-8 bytes)
  "\xce\xbcs": 1000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: NS,
  m: 60n * NS,
  h: 3600n * NS,
};

/**
 * The time package's quote of a string in its errors: ASCII as is (with `"` and `\\` escaped), every byte
 * of any other rune or control character as \xHH.
 */
function timeQuote(s: string): string {
  let out = '"';
  const rr: Rune = { r: 0, size: 0 };
  for (let i = 0; i < s.length; ) {
    decodeRune(s, i, rr);
    const c = s.charCodeAt(i);
    if (c >= 0x80 || c < 0x20) {
      for (let j = 0; j < rr.size; j++)
        out += `\\x${s
          .charCodeAt(i + j)
          .toString(16)
          .padStart(2, "0")}`;
    } else {
      if (c === 0x22 || c === 0x5c) out += "\\";
      out += s[i];
    }
    i += rr.size;
  }
  return `${out}"`;
}

/** Go's time.ParseDuration; throws with Go's message. */
export function parseDuration(s: string): bigint {
  const orig = s;
  const bad = (): never => fail(`time: invalid duration ${timeQuote(orig)}`);
  let neg = false;
  if (s !== "" && (s[0] === "-" || s[0] === "+")) {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return 0n;
  if (s === "") bad();
  let total = 0n;
  while (s !== "") {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    if (m[0] === "" || m[0] === ".") bad();
    const intPart = m[1] ?? "";
    const frac = m[2] ?? "";
    if (intPart === "" && frac === "") bad();
    s = s.slice(m[0].length);
    const um = /^[^\d.]+/.exec(s);
    if (um === null) fail(`time: missing unit in duration ${timeQuote(orig)}`);
    const unitName = um[0];
    const unit = UNITS[unitName];
    if (unit === undefined) fail(`time: unknown unit ${timeQuote(unitName)} in duration ${timeQuote(orig)}`);
    s = s.slice(unitName.length);
    let v = BigInt(intPart === "" ? "0" : intPart) * unit;
    if (frac !== "") {
      const scale = 10n ** BigInt(frac.length);
      v += (BigInt(frac) * unit) / scale;
    }
    total += v;
  }
  if (total > (1n << 63n) - 1n) bad();
  return neg ? -total : total;
}

function fmtFrac(v: bigint, prec: number): { frac: string; rest: bigint } {
  let digits = "";
  let printed = false;
  for (let i = 0; i < prec; i++) {
    const d = v % 10n;
    printed = printed || d !== 0n;
    if (printed) digits = d.toString() + digits;
    v /= 10n;
  }
  return { frac: printed ? `.${digits}` : "", rest: v };
}

/** Go's Duration.String: "72h3m0.5s", "1.5µs", "0s". */
export function durationString(d: bigint): string {
  if (d === 0n) return "0s";
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < NS) {
    let prec: number;
    let unit: string;
    if (u < 1000n) {
      return `${neg ? "-" : ""}${u}ns`;
    } else if (u < 1_000_000n) {
      prec = 3;
      unit = "\xc2\xb5s";
    } else {
      prec = 6;
      unit = "ms";
    }
    const { frac, rest } = fmtFrac(u, prec);
    out = `${rest}${frac}${unit}`;
  } else {
    const { frac, rest } = fmtFrac(u, 9);
    u = rest;
    out = `${u % 60n}${frac}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return (neg ? "-" : "") + out;
}

export class Duration extends SValue {
  constructor(readonly ns: bigint) {
    super();
  }
  typeName(): string {
    return "time.duration";
  }
  override repr(): string {
    return durationString(this.ns);
  }
  override truth(): boolean {
    return this.ns !== 0n;
  }
  override hashKey(): Key {
    return `\u0100d${this.ns}`;
  }
  override attr(name: string): Value | undefined {
    const d = this.ns;
    switch (name) {
      case "hours":
        return new Float(Number(d / 3600n / NS) + Number(d % (3600n * NS)) / 3.6e12);
      case "minutes":
        return new Float(Number(d / 60n / NS) + Number(d % (60n * NS)) / 6e10);
      case "seconds":
        return new Float(Number(d / NS) + Number(d % NS) / 1e9);
      case "milliseconds":
        return normBig(d / 1_000_000n);
      case "microseconds":
        return normBig(d / 1000n);
      case "nanoseconds":
        return normBig(d);
    }
    throw new StarlarkError(`unrecognized ${this.typeName()} attribute ${JSON.stringify(name)}`);
  }
  override attrNames(): string[] {
    return ["hours", "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds"];
  }
  override cmp(y: Value): number {
    const o = (y as Duration).ns;
    return this.ns < o ? -1 : this.ns > o ? 1 : 0;
  }
  override binary(op: Token, y: Value, right: boolean): Value | undefined {
    const x = this.ns;
    switch (op) {
      case T.PLUS:
        if (y instanceof Duration) return new Duration(x + y.ns);
        if (y instanceof Time) return y.add(x);
        break;
      case T.MINUS:
        if (y instanceof Duration) return new Duration(right ? y.ns - x : x - y.ns);
        break;
      case T.SLASH:
        if (y instanceof Duration) {
          if (y.ns === 0n) fail(`${this.typeName()} division by zero`);
          return right ? new Float(Number(y.ns) / Number(x)) : new Float(Number(x) / Number(y.ns));
        }
        if (isInt(y)) {
          if (right) fail("unsupported operation");
          if (y === 0) fail(`${this.typeName()} division by zero`);
          return new Duration(x / BigInt(y));
        }
        if (y instanceof Float) {
          if (y.v === 0) fail(`${this.typeName()} division by zero`);
          return new Duration(BigInt(Math.trunc(Number(x) / y.v)));
        }
        break;
      case T.SLASHSLASH:
        if (y instanceof Duration) {
          if (y.ns === 0n) fail(`${this.typeName()} division by zero`);
          return normBig(right ? y.ns / x : x / y.ns);
        }
        break;
      case T.STAR:
        if (isInt(y)) return new Duration(x * BigInt(y));
        break;
    }
    return undefined;
  }
}

// ---- time zones ----

interface Zone {
  /** IANA name, "UTC", or "" for a fixed offset */
  name: string;
  /** fixed offset in seconds (when name is "") */
  offset: number;
}

const UTC: Zone = { name: "UTC", offset: 0 };

const fmtCache = new Map<string, Intl.DateTimeFormat>();

function tzFormat(name: string): Intl.DateTimeFormat {
  let f = fmtCache.get(name);
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: name,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      era: "short",
      timeZoneName: "short",
    });
    fmtCache.set(name, f);
  }
  return f;
}

/** Loads an IANA zone (Go's time.LoadLocation); "" and "UTC" are UTC. */
function loadLocation(name: string): Zone {
  if (name === "" || name === "UTC") return UTC;
  if (name === "Local") fail(`unknown time zone ${name}`);
  try {
    tzFormat(name);
  } catch {
    fail(`unknown time zone ${name}`);
  }
  return { name, offset: 0 };
}

/** The zone's offset (seconds east of UTC) and abbreviation at a Unix second. */
function zoneAt(z: Zone, unixSec: number): { offset: number; abbr: string } {
  if (z.name === "UTC") return { offset: 0, abbr: "UTC" };
  if (z.name === "") return { offset: z.offset, abbr: "" };
  const ms = Math.max(-8.64e15, Math.min(8.64e15, unixSec * 1000));
  const parts = tzFormat(z.name).formatToParts(new Date(ms));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  let year = Number(get("year"));
  if (get("era") === "BC" || get("era") === "B") year = 1 - year;
  const localSec =
    daysFromCivil(year, Number(get("month")), Number(get("day"))) * 86400 +
    Number(get("hour")) * 3600 +
    Number(get("minute")) * 60 +
    Number(get("second"));
  const offset = Math.round((localSec - Math.floor(ms / 1000)) / 60) * 60;
  let abbr = get("timeZoneName");
  if (/^GMT[+-]/.test(abbr) || abbr === "GMT") abbr = offsetName(offset, false);
  return { offset, abbr };
}

function offsetName(offset: number, colon: boolean): string {
  const sign = offset < 0 ? "-" : "+";
  const a = Math.abs(offset);
  const h = String(Math.floor(a / 3600)).padStart(2, "0");
  const m = String(Math.floor((a % 3600) / 60)).padStart(2, "0");
  return `${sign}${h}${colon ? ":" : ""}${m}`;
}

// civil date <-> days since 1970-01-01 (proleptic Gregorian)
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z: number): { y: number; m: number; d: number } {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return { y: y + (m <= 2 ? 1 : 0), m, d };
}

// ---- instants ----

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
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nsec: number;
  wday: number;
  yday: number;
  offset: number;
  abbr: string;
}

export class Time extends SValue {
  /** nanoseconds since the Unix epoch */
  constructor(
    readonly ns: bigint,
    readonly zone: Zone = UTC,
  ) {
    super();
  }
  typeName(): string {
    return "time.time";
  }
  get unixSec(): number {
    return Number(floorDiv(this.ns, NS));
  }
  get nsec(): number {
    return Number(this.ns - floorDiv(this.ns, NS) * NS);
  }
  fields(): Fields {
    const sec = this.unixSec;
    const { offset, abbr } = zoneAt(this.zone, sec);
    const local = sec + offset;
    const days = Math.floor(local / 86400);
    const rem = local - days * 86400;
    const { y, m, d } = civilFromDays(days);
    return {
      year: y,
      month: m,
      day: d,
      hour: Math.floor(rem / 3600),
      minute: Math.floor((rem % 3600) / 60),
      second: rem % 60,
      nsec: this.nsec,
      wday: (((days + 4) % 7) + 7) % 7,
      yday: days - daysFromCivil(y, 1, 1) + 1,
      offset,
      abbr,
    };
  }
  override repr(): string {
    return formatTime(this, "2006-01-02 15:04:05.999999999 -0700 MST");
  }
  override truth(): boolean {
    return this.ns !== ZERO_TIME;
  }
  override hashKey(): Key {
    return `\u0100t${this.ns}`;
  }
  add(d: bigint): Time {
    return new Time(this.ns + d, this.zone);
  }
  override attr(name: string): Value | undefined {
    switch (name) {
      case "year":
      case "month":
      case "day":
      case "hour":
      case "minute":
      case "second":
        return this.fields()[name];
      case "nanosecond":
        return this.nsec;
      case "unix":
        return this.unixSec;
      case "unix_nano":
        return normBig(this.ns);
      case "in_location":
        return new Builtin(
          "in_location",
          (_th, args, kwargs, recv) => {
            const [loc] = unpackPositional("in_location", args, kwargs, 1, [toStr]) as [string];
            return new Time((recv as Time).ns, loadLocation(loc));
          },
          this,
        );
      case "format":
        return new Builtin(
          "format",
          (_th, args, kwargs, recv) => {
            const [layout] = unpackPositional("format", args, kwargs, 1, [toStr]) as [string];
            return formatTime(recv as Time, layout);
          },
          this,
        );
    }
    return undefined;
  }
  override attrNames(): string[] {
    return [
      "format",
      "in_location",
      "year",
      "month",
      "day",
      "hour",
      "minute",
      "second",
      "nanosecond",
      "unix",
      "unix_nano",
    ];
  }
  override cmp(y: Value): number {
    const o = (y as Time).ns;
    return this.ns < o ? -1 : this.ns > o ? 1 : 0;
  }
  override binary(op: Token, y: Value, right: boolean): Value | undefined {
    if (right) return undefined;
    if (op === T.PLUS && y instanceof Duration) return this.add(y.ns);
    if (op === T.MINUS) {
      if (y instanceof Duration) return this.add(-y.ns);
      if (y instanceof Time) return new Duration(this.ns - y.ns);
    }
    return undefined;
  }
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

const ZERO_TIME = BigInt(daysFromCivil(1, 1, 1)) * 86400n * NS;

function pad(n: number, w: number, c = "0"): string {
  return String(n).padStart(w, c);
}

const LAYOUT_TOKENS = [
  "January",
  "Monday",
  "Jan",
  "Mon",
  "MST",
  "2006",
  "002",
  "__2",
  "_2",
  "01",
  "02",
  "03",
  "04",
  "05",
  "06",
  "15",
  "Z07:00:00",
  "-07:00:00",
  "Z070000",
  "-070000",
  "Z07:00",
  "-07:00",
  "Z0700",
  "-0700",
  "Z07",
  "-07",
  "PM",
  "pm",
  "1",
  "2",
  "3",
  "4",
  "5",
];

function nextToken(layout: string, i: number): string | null {
  if (layout[i] === "." || layout[i] === ",") {
    const m = /^[.,](0+|9+)/.exec(layout.slice(i));
    if (m !== null && !/\d/.test(layout[i + m[0].length] ?? "")) return m[0];
  }
  for (const t of LAYOUT_TOKENS) if (layout.startsWith(t, i)) return t;
  return null;
}

/** Go's Time.Format for the common layout elements. */
function formatTime(t: Time, layout: string): string {
  const f = t.fields();
  let out = "";
  for (let i = 0; i < layout.length; ) {
    const tok = nextToken(layout, i);
    if (tok === null) {
      out += layout[i];
      i++;
      continue;
    }
    i += tok.length;
    switch (tok) {
      case "January":
        out += MONTHS[f.month - 1];
        break;
      case "Jan":
        out += MONTHS[f.month - 1]!.slice(0, 3);
        break;
      case "Monday":
        out += DAYS[f.wday];
        break;
      case "Mon":
        out += DAYS[f.wday]!.slice(0, 3);
        break;
      case "MST":
        out += f.abbr !== "" ? f.abbr : offsetName(f.offset, false);
        break;
      case "2006":
        out += pad(f.year, 4);
        break;
      case "06":
        out += pad(f.year % 100, 2);
        break;
      case "002":
        out += pad(f.yday, 3);
        break;
      case "__2":
        out += pad(f.yday, 3, " ");
        break;
      case "_2":
        out += pad(f.day, 2, " ");
        break;
      case "01":
        out += pad(f.month, 2);
        break;
      case "1":
        out += f.month;
        break;
      case "02":
        out += pad(f.day, 2);
        break;
      case "2":
        out += f.day;
        break;
      case "15":
        out += pad(f.hour, 2);
        break;
      case "03":
        out += pad(f.hour % 12 === 0 ? 12 : f.hour % 12, 2);
        break;
      case "3":
        out += f.hour % 12 === 0 ? 12 : f.hour % 12;
        break;
      case "04":
        out += pad(f.minute, 2);
        break;
      case "4":
        out += f.minute;
        break;
      case "05":
        out += pad(f.second, 2);
        break;
      case "5":
        out += f.second;
        break;
      case "PM":
        out += f.hour >= 12 ? "PM" : "AM";
        break;
      case "pm":
        out += f.hour >= 12 ? "pm" : "am";
        break;
      default:
        if (tok[0] === "." || tok[0] === ",") {
          const digits = pad(f.nsec, 9).slice(0, tok.length - 1);
          if (tok[1] === "0") out += tok[0] + digits;
          else {
            const trimmed = digits.replace(/0+$/, "");
            if (trimmed !== "") out += tok[0] + trimmed;
          }
        } else {
          // zone offsets
          if (tok[0] === "Z" && f.offset === 0) {
            out += "Z";
            break;
          }
          const colon = tok.includes(":");
          const a = Math.abs(f.offset);
          let s = (f.offset < 0 ? "-" : "+") + pad(Math.floor(a / 3600), 2);
          if (!tok.endsWith("07")) s += (colon ? ":" : "") + pad(Math.floor((a % 3600) / 60), 2);
          if (tok.endsWith("0000") || tok.endsWith("00:00")) s += (colon ? ":" : "") + pad(a % 60, 2);
          out += s;
        }
    }
  }
  return out;
}

/** Go's time.Parse / ParseInLocation for the common layout elements. */
function parseTime(value: string, layout: string, zone: Zone): Time {
  const orig = value;
  const err = (elem: string, rest: string): never =>
    fail(
      `parsing time ${timeQuote(orig)} as ${timeQuote(layout)}: cannot parse ${timeQuote(rest)} as ${timeQuote(elem)}`,
    );
  let year = 1;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let nsec = 0;
  let pm: boolean | null = null;
  let offset: number | null = null;
  let v = value;
  const num = (tok: string, min: number, max: number): number => {
    const m = new RegExp(`^\\d{${min},${max}}`).exec(v);
    if (m === null) err(tok, v);
    v = v.slice(m![0].length);
    return Number(m![0]);
  };
  for (let i = 0; i < layout.length; ) {
    const tok = nextToken(layout, i);
    if (tok === null) {
      // The literal text up to the next layout element, skipped as Go's skip does: a space matches a
      // run of spaces; a mismatch reports the whole literal and the value from the mismatch on.
      let j = i + 1;
      while (j < layout.length && nextToken(layout, j) === null) j++;
      const prefix = layout.slice(i, j);
      for (let k = 0; k < prefix.length; ) {
        if (prefix[k] === " ") {
          if (v.length > 0 && v[0] !== " ") err(prefix, v);
          while (k < prefix.length && prefix[k] === " ") k++;
          v = v.replace(/^ +/, "");
          continue;
        }
        if (v.length === 0 || v[0] !== prefix[k]) err(prefix, v);
        k++;
        v = v.slice(1);
      }
      i = j;
      continue;
    }
    i += tok.length;
    switch (tok) {
      case "2006":
        year = num(tok, 4, 4);
        break;
      case "06":
        year = num(tok, 2, 2);
        year += year >= 69 ? 1900 : 2000;
        break;
      case "01":
        month = num(tok, 2, 2);
        break;
      case "1":
        month = num(tok, 1, 2);
        break;
      case "January":
      case "Jan": {
        const idx = MONTHS.findIndex((mn) =>
          v.toLowerCase().startsWith((tok === "Jan" ? mn.slice(0, 3) : mn).toLowerCase()),
        );
        if (idx < 0) err(tok, v);
        v = v.slice(tok === "Jan" ? 3 : MONTHS[idx]!.length);
        month = idx + 1;
        break;
      }
      case "Monday":
      case "Mon": {
        const idx = DAYS.findIndex((dn) =>
          v.toLowerCase().startsWith((tok === "Mon" ? dn.slice(0, 3) : dn).toLowerCase()),
        );
        if (idx < 0) err(tok, v);
        v = v.slice(tok === "Mon" ? 3 : DAYS[idx]!.length);
        break;
      }
      case "02":
        day = num(tok, 2, 2);
        break;
      case "_2":
        if (v[0] === " ") v = v.slice(1);
        day = num(tok, 1, 2);
        break;
      case "2":
        day = num(tok, 1, 2);
        break;
      case "15":
        hour = num(tok, 2, 2);
        break;
      case "03":
        hour = num(tok, 2, 2);
        break;
      case "3":
        hour = num(tok, 1, 2);
        break;
      case "04":
        minute = num(tok, 2, 2);
        break;
      case "4":
        minute = num(tok, 1, 2);
        break;
      case "05":
      case "5":
        second = num(tok, tok === "05" ? 2 : 1, 2);
        // a fractional second may follow even if the layout does not say so
        if (/^[.,]\d/.test(v) && !/^[.,](0|9)/.test(layout.slice(i))) {
          const m = /^[.,](\d+)/.exec(v)!;
          nsec = Number(m[1]!.slice(0, 9).padEnd(9, "0"));
          v = v.slice(m[0].length);
        }
        break;
      case "PM":
      case "pm": {
        const s = v.slice(0, 2).toUpperCase();
        if (s !== "AM" && s !== "PM") err(tok, v);
        pm = s === "PM";
        v = v.slice(2);
        break;
      }
      case "MST": {
        const m = /^[A-Z]{3,5}/.exec(v);
        if (m === null) err(tok, v);
        if (m![0] === "UTC" || m![0] === "GMT") offset = 0;
        v = v.slice(m![0].length);
        break;
      }
      default:
        if (tok[0] === "." || tok[0] === ",") {
          const m = /^[.,](\d+)/.exec(v);
          if (m === null) {
            if (tok[1] === "9") break;
            err(tok, v);
          }
          nsec = Number(m![1]!.slice(0, 9).padEnd(9, "0"));
          v = v.slice(m![0].length);
        } else if (tok === "002" || tok === "__2") {
          num(tok, 1, 3);
        } else {
          if (tok[0] === "Z" && v[0] === "Z") {
            offset = 0;
            v = v.slice(1);
            break;
          }
          const m = /^([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?/.exec(v);
          if (m === null) err(tok, v);
          const sign = m![1] === "-" ? -1 : 1;
          offset = sign * (Number(m![2]) * 3600 + Number(m![3] ?? 0) * 60 + Number(m![4] ?? 0));
          v = v.slice(m![0].length);
        }
    }
  }
  if (v !== "") fail(`parsing time ${timeQuote(orig)}: extra text: ${timeQuote(v)}`);
  if (pm !== null) {
    if (pm && hour < 12) hour += 12;
    else if (!pm && hour === 12) hour = 0;
  }
  const localSec = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
  let z = zone;
  let off: number;
  if (offset !== null) {
    off = offset;
    z = offset === 0 && zone.name === "UTC" ? UTC : { name: "", offset };
  } else {
    off = zoneAt(zone, localSec).offset;
    off = zoneAt(zone, localSec - off).offset;
  }
  return new Time(BigInt(localSec - off) * NS + BigInt(nsec), z);
}

function makeTime(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ns: number,
  zone: Zone,
): Time {
  // normalize like Go's time.Date
  const totalMonths = y * 12 + (mo - 1);
  const yy = Math.floor(totalMonths / 12);
  const mm = totalMonths - yy * 12 + 1;
  const localSec = daysFromCivil(yy, mm, 1) * 86400 + (d - 1) * 86400 + h * 3600 + mi * 60 + s;
  const extra = BigInt(ns);
  let off = zoneAt(zone, localSec).offset;
  off = zoneAt(zone, localSec - off).offset;
  return new Time(BigInt(localSec - off) * NS + extra, zone);
}

// ---- module ----

const fromTimestamp = new Builtin("from_timestamp", (_th, args, kwargs) => {
  const [sec, nsec] = unpackPositional("from_timestamp", args, kwargs, 1, [toInt, toInt]) as [
    number,
    number?,
  ];
  return new Time(BigInt(sec) * NS + BigInt(nsec ?? 0));
});

const isValidTimezone = new Builtin("is_valid_timezone", (_th, args, kwargs) => {
  const [s] = unpackPositional("is_valid_timezone", args, kwargs, 1, [toStr]) as [string];
  try {
    loadLocation(s);
    return true;
  } catch {
    return false;
  }
});

const now = new Builtin("now", (th, args, kwargs) => {
  unpackPositional("now", args, kwargs, 0, []);
  const hook = th.local("time.now") as (() => bigint) | undefined;
  if (hook !== undefined) return new Time(hook());
  return new Time(BigInt(Date.now()) * 1_000_000n);
});

const toDuration = (v: Value): bigint => {
  if (v instanceof Duration) return v.ns;
  if (typeof v === "string") return parseDuration(v);
  throw new StarlarkError(`got ${typeName(v)}, want a duration, string, or int`);
};

const parseDurationB = new Builtin("parse_duration", (_th, args, kwargs) => {
  const [d] = unpackPositional("parse_duration", args, kwargs, 1, [toDuration]) as [bigint];
  return new Duration(d);
});

const parseTimeB = new Builtin("parse_time", (_th, args, kwargs) => {
  const [x, format, location] = unpackArgs("parse_time", args, kwargs, [
    ["x", toStr],
    ["format?", toStr],
    ["location?", toStr],
  ]) as [string, string?, string?];
  return parseTime(x, format ?? "2006-01-02T15:04:05Z07:00", loadLocation(location ?? "UTC"));
});

const timeB = new Builtin("time", (_th, args, kwargs) => {
  const [year, month, day, hour, minute, second, nsec, loc] = unpackArgs("time", args, kwargs, [
    ["year?", toInt],
    ["month?", toInt],
    ["day?", toInt],
    ["hour?", toInt],
    ["minute?", toInt],
    ["second?", toInt],
    ["nanosecond?", toInt],
    ["location?", toStr],
  ]) as (number | undefined)[];
  if (args.length > 0) fail("time: unexpected positional arguments");
  const zone = loadLocation((loc as unknown as string | undefined) ?? "");
  return makeTime(year ?? 0, month ?? 0, day ?? 0, hour ?? 0, minute ?? 0, second ?? 0, nsec ?? 0, zone);
});

/** The `time` module value. */
export const timeModule = new Module(
  "time",
  new Map<string, Value>([
    ["from_timestamp", fromTimestamp],
    ["is_valid_timezone", isValidTimezone],
    ["now", now],
    ["parse_duration", parseDurationB],
    ["parse_time", parseTimeB],
    ["time", timeB],
    ["nanosecond", new Duration(1n)],
    ["microsecond", new Duration(1000n)],
    ["millisecond", new Duration(1_000_000n)],
    ["second", new Duration(NS)],
    ["minute", new Duration(60n * NS)],
    ["hour", new Duration(3600n * NS)],
  ]),
);
