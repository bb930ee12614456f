/** Go's `Time.Format`: an instant's wall-clock fields written by a layout. */
import { DAYS, MONTHS } from "./civil.js";
import type { Fields } from "./fields.js";
import { isFraction, nextChunk } from "./layout.js";
import { offsetName } from "./zone.js";

function pad(n: number, w: number, c = "0"): string {
  return String(n).padStart(w, c);
}

const hour12 = (h: number) => (h % 12 === 0 ? 12 : h % 12);

/** The chunks that write one field. */
const WRITERS: Readonly<Record<string, (f: Fields) => string>> = {
  January: (f) => MONTHS[f.month - 1] as string,
  Jan: (f) => (MONTHS[f.month - 1] as string).slice(0, 3),
  Monday: (f) => DAYS[f.wday] as string,
  Mon: (f) => (DAYS[f.wday] as string).slice(0, 3),
  MST: (f) => (f.abbr !== "" ? f.abbr : offsetName(f.offset, false)),
  "2006": (f) => pad(f.year, 4),
  "06": (f) => pad(f.year % 100, 2),
  "002": (f) => pad(f.yday, 3),
  __2: (f) => pad(f.yday, 3, " "),
  _2: (f) => pad(f.day, 2, " "),
  "01": (f) => pad(f.month, 2),
  "1": (f) => String(f.month),
  "02": (f) => pad(f.day, 2),
  "2": (f) => String(f.day),
  "15": (f) => pad(f.hour, 2),
  "03": (f) => pad(hour12(f.hour), 2),
  "3": (f) => String(hour12(f.hour)),
  "04": (f) => pad(f.minute, 2),
  "4": (f) => String(f.minute),
  "05": (f) => pad(f.second, 2),
  "5": (f) => String(f.second),
  PM: (f) => (f.hour >= 12 ? "PM" : "AM"),
  pm: (f) => (f.hour >= 12 ? "pm" : "am"),
};

/** `.000` writes every digit, `.999` drops trailing zeros (and the separator when nothing is left). */
function fraction(chunk: string, nsec: number): string {
  const digits = pad(nsec, 9).slice(0, chunk.length - 1);
  if (chunk[1] === "0") return chunk[0] + digits;
  const trimmed = digits.replace(/0+$/, "");
  return trimmed === "" ? "" : chunk[0] + trimmed;
}

/** `Z07:00`, `-0700`, `-07:00:00`...: Z for UTC when the chunk starts with Z, else the signed offset. */
function zoneOffset(chunk: string, offset: number): string {
  if (chunk[0] === "Z" && offset === 0) return "Z";
  const colon = chunk.includes(":") ? ":" : "";
  const a = Math.abs(offset);
  let s = (offset < 0 ? "-" : "+") + pad(Math.floor(a / 3600), 2);
  if (!chunk.endsWith("07")) s += colon + pad(Math.floor((a % 3600) / 60), 2);
  if (chunk.endsWith("0000") || chunk.endsWith("00:00")) s += colon + pad(a % 60, 2);
  return s;
}

/** Go's `Time.Format(layout)` of the fields (`fieldsAt`); layout and result are Go strings (one char per byte). */
export function formatLayout(f: Fields, layout: string): string {
  let out = "";
  for (let i = 0; i < layout.length; ) {
    const chunk = nextChunk(layout, i);
    if (chunk === null) {
      out += layout[i];
      i++;
      continue;
    }
    i += chunk.length;
    const write = WRITERS[chunk];
    if (write !== undefined) out += write(f);
    else if (isFraction(chunk)) out += fraction(chunk, f.nsec);
    else out += zoneOffset(chunk, f.offset);
  }
  return out;
}
