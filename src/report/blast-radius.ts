/**
 * The `porchlight/downstreams` check on a proposed upstream change: the downstream packages a
 * publish would upgrade, and for each what the upgrade would do (a dry run). Pure.
 */
import type { CheckOutput } from "../github/port.js";
import type { ResourceOutcome, ResourceOverride } from "../pkg/merge3/package-merge.js";
import { truncateSummary } from "./check-summary.js";
import { mermaidBlock } from "./mermaid.js";
import { describeOutcome, formatFieldPath, keptChanged } from "./upgrade.js";

/** The check run's name. */
export const BLAST_RADIUS_CHECK_NAME = "porchlight/downstreams";

/** One downstream of a proposed change. */
export interface BlastRadiusRow {
  upstreamPackage: string;
  /** `owner/repo/package`. */
  downstream: string;
  /** The revision it is on. */
  revision: number | undefined;
  overrides: ResourceOverride[];
  /** Resources the upgrade would add or delete on either side (absent: not computed). */
  outcomes?: ResourceOutcome[];
  /** Why the upgrade would fail. */
  error?: string;
}

/** The graph of `rows` as a ```mermaid block: the proposed package to each downstream, by verdict. */
export function blastRadiusGraph(rows: readonly BlastRadiusRow[]): string {
  return mermaidBlock(
    rows.map((r) => ({
      upstream: r.upstreamPackage || ".",
      upstreamNote: "proposed change",
      downstream: r.downstream,
      downstreamNote: `${r.revision === undefined ? "revision unknown" : `on v${r.revision}`} · ${
        r.error ? "would fail" : r.overrides.length > 0 ? `overrides ${r.overrides.length}` : "clean"
      }`,
      state: r.error ? "failing" : r.overrides.length > 0 ? "overrides" : "current",
    })),
  );
}

/** The check output listing `rows`. */
export function blastRadiusOutput(rows: readonly BlastRadiusRow[]): CheckOutput {
  const failing = rows.filter((r) => r.error).length;
  const overriding = rows.filter((r) => !r.error && r.overrides.length > 0).length;
  const lines = [
    `Publishing this change would open an upgrade pull request in ${rows.length} downstream package${rows.length === 1 ? "" : "s"}.`,
    "",
    "| downstream | on | upgrade |",
    "| --- | --- | --- |",
    ...rows.map((r) => {
      const verdict = r.error
        ? `❌ would fail: ${r.error.replace(/\n/g, " ").replace(/\|/g, "\\|")}`
        : r.overrides.length > 0
          ? `⚠️ overrides ${r.overrides.length} local edit${r.overrides.length === 1 ? "" : "s"}`
          : "✅ keeps every local edit";
      const kept = r.error ? 0 : keptChanged(r).length;
      const keeps = kept > 0 ? `; ⚠️ keeps ${kept} resource${kept === 1 ? "" : "s"} upstream deletes` : "";
      return `| \`${r.downstream}\` | ${r.revision === undefined ? "-" : `\`${r.upstreamPackage}/v${r.revision}\``} | ${verdict}${keeps} |`;
    }),
  ];
  lines.push("", blastRadiusGraph(rows).trimEnd());
  const details = rows.filter((r) => !r.error && r.overrides.length > 0);
  if (details.length > 0) {
    lines.push("", "### Local edits a publish would override");
    for (const r of details) {
      lines.push("", `\`${r.downstream}\`:`);
      for (const o of r.overrides) {
        lines.push(
          o.kind === "removed"
            ? `- \`${o.file}\` ${o.resource.kind}/${o.resource.name} \`${formatFieldPath(o.path)}\`: \`${o.local}\` removed`
            : `- \`${o.file}\` ${o.resource.kind}/${o.resource.name} \`${formatFieldPath(o.path)}\`: \`${o.local}\` → \`${o.upstream}\``,
        );
      }
    }
  }
  const changing = rows.filter((r) => !r.error && (r.outcomes ?? []).length > 0);
  if (changing.length > 0) {
    lines.push("", "### Resources a publish would add or delete");
    for (const r of changing) {
      lines.push("", `\`${r.downstream}\`:`, ...(r.outcomes ?? []).map((o) => `- ${describeOutcome(o)}`));
    }
  }
  return {
    title:
      failing > 0
        ? `${failing} downstream upgrade${failing === 1 ? "" : "s"} would fail`
        : overriding > 0
          ? `${overriding} downstream${overriding === 1 ? "" : "s"} would lose local edits`
          : `${rows.length} downstream${rows.length === 1 ? "" : "s"} would upgrade cleanly`,
    summary: truncateSummary(lines.join("\n")),
  };
}
