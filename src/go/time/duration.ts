/**
 * Go's `time.ParseDuration` grammar: an optional sign, then one or more terms, each a decimal number
 * (`1`, `1.5`, `.5`, `1.`) and a unit (`ns`, `us`, `µs`/`μs`, `ms`, `s`, `m`, `h`), or `"0"` alone.
 * {@link scanDuration} splits a string into its terms; {@link parseDuration} sums them exactly, as Go does
 * (Starlark's `time.parse_duration`). Rego's `time.parse_duration_ns` sums the same terms as floats.
 * Strings are Go strings (one char per byte), so `µ` is two chars.
 */
import { GoTimeError, quote } from "./errors.js";

const NS = 1_000_000_000n;

/** Nanoseconds per unit; the two micro signs are U+00B5 and U+03BC in UTF-8. */
const UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1000n,
  "\xc2\xb5s": 1000n,
  "\xce\xbcs": 1000n,
  ms: 1_000_000n,
  s: NS,
  m: 60n * NS,
  h: 3600n * NS,
};

/** One `<number><unit>` term: the number as written, its digits around the point, the unit in ns. */
export interface DurationTerm {
  /** As written (`1.5`, `.5`, `1.`). */
  number: string;
  whole: string;
  fraction: string;
  unitNs: bigint;
}

/** Why a duration does not parse: Go's three errors. */
export type DurationProblem = "invalid" | "missing unit" | "unknown unit";

/**
 * A string that is no Go duration. `message` is Go's; `rest` is the text from the term that failed on
 * (after the sign), `unit` the unknown unit.
 */
export class DurationSyntaxError extends GoTimeError {
  constructor(
    readonly problem: DurationProblem,
    input: string,
    readonly rest: string,
    readonly unit?: string,
  ) {
    super(
      problem === "unknown unit"
        ? `time: unknown unit ${quote(unit ?? "")} in duration ${quote(input)}`
        : `time: ${problem === "invalid" ? "invalid duration" : "missing unit in duration"} ${quote(input)}`,
    );
  }
}

/**
 * The sign and terms of Go duration `s` (`"0"`: no terms).
 * @throws DurationSyntaxError with Go's message naming `s`.
 */
export function scanDuration(s: string): { negative: boolean; terms: DurationTerm[] } {
  const input = s;
  let negative = false;
  if (s !== "" && (s[0] === "-" || s[0] === "+")) {
    negative = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return { negative, terms: [] };
  if (s === "") throw new DurationSyntaxError("invalid", input, s);
  const terms: DurationTerm[] = [];
  while (s !== "") {
    const rest = s;
    const m = /^(\d*)(?:\.(\d*))?/.exec(s) as RegExpExecArray;
    const whole = m[1] ?? "";
    const fraction = m[2] ?? "";
    if (whole === "" && fraction === "") throw new DurationSyntaxError("invalid", input, rest);
    s = s.slice(m[0].length);
    const unit = /^[^\d.]+/.exec(s)?.[0];
    if (unit === undefined) throw new DurationSyntaxError("missing unit", input, rest);
    const unitNs = UNITS[unit];
    if (unitNs === undefined) throw new DurationSyntaxError("unknown unit", input, rest, unit);
    s = s.slice(unit.length);
    terms.push({ number: m[0], whole, fraction, unitNs });
  }
  return { negative, terms };
}

/**
 * Go's `time.ParseDuration`, in ns, exact (a fraction's digits beyond the ns are cut off).
 * @throws DurationSyntaxError with Go's message (`time: invalid duration "…"` too over 2^63 − 1 ns).
 */
export function parseDuration(s: string): bigint {
  const { negative, terms } = scanDuration(s);
  let total = 0n;
  for (const t of terms) {
    total += BigInt(t.whole === "" ? "0" : t.whole) * t.unitNs;
    if (t.fraction !== "") total += (BigInt(t.fraction) * t.unitNs) / 10n ** BigInt(t.fraction.length);
  }
  if (total > (1n << 63n) - 1n) throw new DurationSyntaxError("invalid", s, s);
  return negative ? -total : total;
}
