/**
 * Time zones as Go's `time.Location`, answered by Intl's IANA database: a named zone, UTC, or a fixed offset.
 */
import { daysFromCivil } from "./civil.js";
import { GoTimeError } from "./errors.js";

/** A location: an IANA `name` ("UTC" for UTC), or `name` "" and a fixed `offset` in seconds east of UTC. */
export interface Zone {
  name: string;
  offset: number;
}

export const UTC: Zone = { name: "UTC", offset: 0 };

const formats = new Map<string, Intl.DateTimeFormat>();

function tzFormat(name: string): Intl.DateTimeFormat {
  let f = formats.get(name);
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
    formats.set(name, f);
  }
  return f;
}

/** Go's `time.LoadLocation`: "" and "UTC" are UTC; throws GoTimeError `unknown time zone <name>` ("Local" too). */
export function loadLocation(name: string): Zone {
  if (name === "" || name === "UTC") return UTC;
  if (name === "Local") throw new GoTimeError(`unknown time zone ${name}`);
  try {
    tzFormat(name);
  } catch {
    throw new GoTimeError(`unknown time zone ${name}`);
  }
  return { name, offset: 0 };
}

/** The zone's offset (seconds east of UTC) and abbreviation at a Unix second (Go's `Location.lookup`). */
export function zoneAt(z: Zone, unixSec: number): { offset: number; abbr: string } {
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

/** The UTC second of a wall-clock second in a zone (Go's `time.Date` zone lookup, twice for transitions). */
export function utcOfLocal(z: Zone, localSec: number): number {
  let off = zoneAt(z, localSec).offset;
  off = zoneAt(z, localSec - off).offset;
  return localSec - off;
}

/** `+hhmm` or `+hh:mm` of an offset in seconds. */
export function offsetName(offset: number, colon: boolean): string {
  const sign = offset < 0 ? "-" : "+";
  const a = Math.abs(offset);
  const h = String(Math.floor(a / 3600)).padStart(2, "0");
  const m = String(Math.floor((a % 3600) / 60)).padStart(2, "0");
  return `${sign}${h}${colon ? ":" : ""}${m}`;
}
