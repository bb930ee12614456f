/**
 * Go's layout elements ("2006-01-02T15:04:05Z07:00"): the reference-time chunks `nextStdChunk` finds, and the
 * layouts the `time` package names.
 */

/** The chunks, longest first where one is a prefix of another. */
const CHUNKS = [
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

/** The layout element starting at `i` (`.000`/`,999` fractional seconds included), or null for a literal. */
export function nextChunk(layout: string, i: number): string | null {
  if (layout[i] === "." || layout[i] === ",") {
    const m = /^[.,](0+|9+)/.exec(layout.slice(i));
    if (m !== null && !/\d/.test(layout[i + m[0].length] ?? "")) return m[0];
  }
  for (const t of CHUNKS) if (layout.startsWith(t, i)) return t;
  return null;
}

/** Whether a chunk is a fractional second (`.000`, `,999`). */
export function isFraction(chunk: string): boolean {
  return chunk[0] === "." || chunk[0] === ",";
}

/** The `time` package's named layouts (`time.RFC3339`, `time.Kitchen`, ...). */
export const NAMED_LAYOUTS: Readonly<Record<string, string>> = {
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
