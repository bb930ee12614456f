/**
 * Deciding, purely, the `porchlight/package-variants` check run of the default branch's head: one row
 * per variant (and per gone draft), the problems of the directories and documents, the notes.
 */
import type { CheckOutput } from "../../../github/port.js";
import type { VariantRow } from "../../../report/package-variants.js";
import { variantsCheckOutput } from "../../../report/package-variants.js";

/** The check run to ensure on the default branch's head. */
export interface VariantsReport {
  output: CheckOutput;
  conclusion: "success" | "failure";
  /** `variants <hash of the summary>`: an unchanged report is not posted again. */
  externalId: string;
}

function hashText(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h.toString(16);
}

/** The report of `rows`, `problems` and `notes`; a failure when any problem, invalid or failed row. Pure. */
export function variantsReport(
  rows: readonly VariantRow[],
  problems: readonly string[],
  notes: readonly string[],
): VariantsReport {
  const output = variantsCheckOutput(rows, problems, notes);
  const failed = problems.length > 0 || rows.some((r) => r.state === "invalid" || r.state === "failed");
  return {
    output,
    conclusion: failed ? "failure" : "success",
    externalId: `variants ${hashText(output.summary)}`,
  };
}
