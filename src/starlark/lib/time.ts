/**
 * The `time` module as go.starlark.net provides it (lib/time): durations and instants with Go's
 * layouts ("2006-01-02T15:04:05Z07:00"), IANA time zones (via Intl), parse_time, parse_duration,
 * from_timestamp, time(...), now(). Instants are exact to the nanosecond. `now()` reads the host clock
 * unless the host sets a thread local "time.now" (a function returning Unix nanoseconds as a bigint),
 * e.g. to make renders deterministic; from_timestamp gives UTC (no access to the host's time zone).
 */

import {
  daysFromCivil,
  type Fields,
  fieldsAt,
  floorDiv,
  formatLayout,
  GoTimeError,
  loadLocation as goLoadLocation,
  parseDuration,
  parseLayout,
  UTC,
  utcOfLocal,
  type Zone,
} from "../../go/time/index.js";
import { toInt, toStr, unpackArgs, unpackPositional } from "../eval/args.js";
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
} from "../eval/values.js";
import { T, type Token } from "../syntax/syntax.js";

const NS = 1_000_000_000n;

// ---- durations ----

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

// ---- instants ----

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
    return fieldsAt(this.ns, this.zone);
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

const ZERO_TIME = BigInt(daysFromCivil(1, 1, 1)) * 86400n * NS;

/** Go's Time.Format. */
function formatTime(t: Time, layout: string): string {
  return formatLayout(t.fields(), layout);
}

/** Go's time.ParseInLocation. */
function parseTime(value: string, layout: string, zone: Zone): Time {
  const { ns, zone: z } = goTime(() => parseLayout(value, layout, zone));
  return new Time(ns, z);
}

/** Runs a Go time function, its errors as Starlark errors. */
function goTime<R>(f: () => R): R {
  try {
    return f();
  } catch (e) {
    if (e instanceof GoTimeError) fail(e.message);
    throw e;
  }
}

function loadLocation(name: string): Zone {
  return goTime(() => goLoadLocation(name));
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
  return new Time(BigInt(utcOfLocal(zone, localSec)) * NS + BigInt(ns), zone);
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
  if (typeof v === "string") return goTime(() => parseDuration(v));
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
