/** An instant's wall-clock fields in a zone (what Go's `Time.Date`, `Clock`, `Weekday`, `YearDay` answer). */
import { civilFromDays, daysFromCivil, floorDiv, NS_PER_SECOND } from "./civil.js";
import { type Zone, zoneAt } from "./zone.js";

/** An instant's wall clock in a zone: month 1-12, wday 0 = Sunday, yday from 1, offset in seconds east. */
export interface Fields {
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

/** The wall-clock fields of `ns` nanoseconds since the Unix epoch in `zone`. */
export function fieldsAt(ns: bigint, zone: Zone): Fields {
  const sec = floorDiv(ns, NS_PER_SECOND);
  const unixSec = Number(sec);
  const { offset, abbr } = zoneAt(zone, unixSec);
  const local = unixSec + offset;
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
    nsec: Number(ns - sec * NS_PER_SECOND),
    wday: (((days + 4) % 7) + 7) % 7,
    yday: days - daysFromCivil(y, 1, 1) + 1,
    offset,
    abbr,
  };
}
