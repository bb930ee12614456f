/** Go's `time.Parse` / `time.ParseInLocation`: a value read by a layout into an instant and its zone. */
import { DAYS, daysFromCivil, daysIn, MONTHS, NS_PER_SECOND } from "./civil.js";
import { GoTimeError, quote } from "./errors.js";
import { isFraction, nextChunk } from "./layout.js";
import { UTC, utcOfLocal, type Zone } from "./zone.js";

/** The parse in progress: the value still unread (`rest`) and the fields read so far. */
interface State {
  readonly value: string;
  readonly layout: string;
  rest: string;
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nsec: number;
  pm: boolean | null;
  offset: number | null;
}

/** Thrown by a reader for Go's `errBad` (the caller names the chunk and where the value stood). */
class Bad extends Error {}
/** Thrown by a reader for a field out of its range (`: hour out of range`). */
class OutOfRange extends Error {}

/** Go's `getnum` (`fixed`: exactly two digits) and the n-digit reads. */
function digits(s: State, min: number, max: number): number {
  const m = new RegExp(`^\\d{${min},${max}}`).exec(s.rest);
  if (m === null) throw new Bad();
  s.rest = s.rest.slice(m[0].length);
  return Number(m[0]);
}

function inRange(n: number, lo: number, hi: number, what: string): number {
  if (n < lo || n > hi) throw new OutOfRange(what);
  return n;
}

/** A month or day name, matched case-insensitively (Go's `lookup`); its index. */
function name(s: State, names: string[], len?: number): number {
  const lower = s.rest.toLowerCase();
  const i = names.findIndex((n) => lower.startsWith((len ? n.slice(0, len) : n).toLowerCase()));
  if (i < 0) throw new Bad();
  s.rest = s.rest.slice(len ?? (names[i] as string).length);
  return i;
}

/** Go's `parseNanoseconds` of a separator and `n` digits at the start of the rest. */
function nanoseconds(s: State, n: number): void {
  s.nsec = Number(s.rest.slice(1, Math.min(n, 10)).padEnd(9, "0"));
  s.rest = s.rest.slice(n);
}

function meridiem(s: State, am: string, pm: string): void {
  const p = s.rest.slice(0, 2);
  if (p !== am && p !== pm) throw new Bad();
  s.pm = p === pm;
  s.rest = s.rest.slice(2);
}

/** A second, and a fractional second the layout does not mention (Go's stdSecond special case). */
function second(s: State, min: number, layoutAfter: string): void {
  s.second = inRange(digits(s, min, 2), 0, 59, "second");
  if (!/^[.,]\d/.test(s.rest)) return;
  const next = nextFractionOrChunk(layoutAfter);
  if (next !== null && isFraction(next)) return;
  nanoseconds(s, (/^[.,]\d+/.exec(s.rest) as RegExpExecArray)[0].length);
}

/** The next layout element anywhere after `layout`'s start (Go's `nextStdChunk` of the remaining layout). */
function nextFractionOrChunk(layout: string): string | null {
  for (let i = 0; i < layout.length; i++) {
    const c = nextChunk(layout, i);
    if (c !== null) return c;
  }
  return null;
}

/** A zone abbreviation: UTC and GMT are UTC; another keeps the zone's own offset. */
function abbreviation(s: State): void {
  const m = /^[A-Z]{3,5}/.exec(s.rest);
  if (m === null) throw new Bad();
  if (m[0] === "UTC" || m[0] === "GMT") s.offset = 0;
  s.rest = s.rest.slice(m[0].length);
}

/** `-07`, `Z0700`, `-07:00:00`...: the digits and colons the chunk shows, or Z (UTC) for a Z chunk. */
function offset(s: State, chunk: string): void {
  if (chunk[0] === "Z" && s.rest[0] === "Z") {
    s.offset = 0;
    s.rest = s.rest.slice(1);
    return;
  }
  const m = new RegExp(`^([+-])${chunk.slice(1).replace(/07|00/g, "(\\d\\d)")}`).exec(s.rest);
  if (m === null) throw new Bad();
  const sign = m[1] === "-" ? -1 : 1;
  s.offset = sign * (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0));
  s.rest = s.rest.slice(m[0].length);
}

/** `.000` wants exactly its digits; `.999` takes any number of digits, or none. */
function fraction(s: State, chunk: string): void {
  if (chunk[1] === "0") {
    if (!new RegExp(`^[.,]\\d{${chunk.length - 1}}`).test(s.rest)) throw new Bad();
    nanoseconds(s, chunk.length);
    return;
  }
  const m = /^[.,]\d+/.exec(s.rest);
  if (m !== null) nanoseconds(s, m[0].length);
}

/** The readers of the layout chunks; `after` is the layout past the chunk. */
const READERS: Readonly<Record<string, (s: State, after: string) => void>> = {
  "2006": (s) => {
    s.year = digits(s, 4, 4);
  },
  "06": (s) => {
    const y = digits(s, 2, 2);
    s.year = y + (y >= 69 ? 1900 : 2000);
  },
  "01": (s) => {
    s.month = inRange(digits(s, 2, 2), 1, 12, "month");
  },
  "1": (s) => {
    s.month = inRange(digits(s, 1, 2), 1, 12, "month");
  },
  January: (s) => {
    s.month = name(s, MONTHS) + 1;
  },
  Jan: (s) => {
    s.month = name(s, MONTHS, 3) + 1;
  },
  Monday: (s) => void name(s, DAYS),
  Mon: (s) => void name(s, DAYS, 3),
  "02": (s) => {
    s.day = digits(s, 2, 2);
  },
  _2: (s) => {
    if (s.rest[0] === " ") s.rest = s.rest.slice(1);
    s.day = digits(s, 1, 2);
  },
  "2": (s) => {
    s.day = digits(s, 1, 2);
  },
  "002": (s) => void digits(s, 3, 3),
  __2: (s) => {
    if (s.rest[0] === " ") s.rest = s.rest.slice(1);
    digits(s, 1, 3);
  },
  "15": (s) => {
    s.hour = inRange(digits(s, 1, 2), 0, 23, "hour");
  },
  "03": (s) => {
    s.hour = inRange(digits(s, 2, 2), 0, 12, "hour");
  },
  "3": (s) => {
    s.hour = inRange(digits(s, 1, 2), 0, 12, "hour");
  },
  "04": (s) => {
    s.minute = inRange(digits(s, 2, 2), 0, 59, "minute");
  },
  "4": (s) => {
    s.minute = inRange(digits(s, 1, 2), 0, 59, "minute");
  },
  "05": (s, after) => second(s, 2, after),
  "5": (s, after) => second(s, 1, after),
  PM: (s) => meridiem(s, "AM", "PM"),
  pm: (s) => meridiem(s, "am", "pm"),
  MST: abbreviation,
};

/** Go's `skip`: the literal text before the next element; a space matches a run of spaces. */
function skipLiteral(s: State, prefix: string): void {
  for (let k = 0; k < prefix.length; ) {
    if (prefix[k] === " ") {
      if (s.rest.length > 0 && s.rest[0] !== " ") throw new Bad();
      while (k < prefix.length && prefix[k] === " ") k++;
      s.rest = s.rest.replace(/^ +/, "");
      continue;
    }
    if (s.rest.length === 0 || s.rest[0] !== prefix[k]) throw new Bad();
    k++;
    s.rest = s.rest.slice(1);
  }
}

/** Runs one step (a literal or a chunk), turning Bad and OutOfRange into Go's ParseError messages. */
function step(s: State, elem: string, literal: boolean, run: () => void): void {
  const hold = s.rest;
  try {
    run();
  } catch (e) {
    const { value, layout } = s;
    if (e instanceof OutOfRange)
      throw new GoTimeError(`parsing time ${quote(value)}: ${e.message} out of range`);
    if (!(e instanceof Bad)) throw e;
    const at = literal ? s.rest : hold;
    throw new GoTimeError(
      `parsing time ${quote(value)} as ${quote(layout)}: cannot parse ${quote(at)} as ${quote(elem)}`,
    );
  }
}

function readAll(s: State): void {
  const { layout } = s;
  for (let i = 0; i < layout.length; ) {
    const chunk = nextChunk(layout, i);
    if (chunk === null) {
      let j = i + 1;
      while (j < layout.length && nextChunk(layout, j) === null) j++;
      const prefix = layout.slice(i, j);
      step(s, prefix, true, () => skipLiteral(s, prefix));
      i = j;
      continue;
    }
    i += chunk.length;
    const after = layout.slice(i);
    const read = READERS[chunk];
    step(s, chunk, false, () =>
      read !== undefined ? read(s, after) : isFraction(chunk) ? fraction(s, chunk) : offset(s, chunk),
    );
  }
  if (s.rest !== "") throw new GoTimeError(`parsing time ${quote(s.value)}: extra text: ${quote(s.rest)}`);
}

/**
 * Go's `time.ParseInLocation(layout, value, zone)` (`time.Parse` with UTC): nanoseconds since the Unix epoch
 * and the instant's zone (a fixed offset when the value names one). Strings are Go strings (one char per
 * byte); elements the layout omits are zero, or one for month and day (year 0, as Go). Throws GoTimeError with Go's message (`parsing time "x" as "2006": cannot parse "x" as "2006"`,
 * `...: month out of range`, `...: extra text: "..."`).
 */
export function parseLayout(value: string, layout: string, zone: Zone = UTC): { ns: bigint; zone: Zone } {
  const s: State = {
    value,
    layout,
    rest: value,
    year: 0,
    month: 1,
    day: 1,
    hour: 0,
    minute: 0,
    second: 0,
    nsec: 0,
    pm: null,
    offset: null,
  };
  readAll(s);
  if (s.pm === true && s.hour < 12) s.hour += 12;
  else if (s.pm === false && s.hour === 12) s.hour = 0;
  if (s.day < 1 || s.day > daysIn(s.month, s.year))
    throw new GoTimeError(`parsing time ${quote(value)}: day out of range`);
  const localSec = daysFromCivil(s.year, s.month, s.day) * 86400 + s.hour * 3600 + s.minute * 60 + s.second;
  const nsec = BigInt(s.nsec);
  if (s.offset === null) return { ns: BigInt(utcOfLocal(zone, localSec)) * NS_PER_SECOND + nsec, zone };
  const z = s.offset === 0 && zone.name === "UTC" ? UTC : { name: "", offset: s.offset };
  return { ns: BigInt(localSec - s.offset) * NS_PER_SECOND + nsec, zone: z };
}
