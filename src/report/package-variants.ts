/**
 * What users read about PackageVariants: the `porchlight/package-variants` check run on the default
 * branch (one row per variant: its downstream, the draft and pull request it opened, errors) and the
 * pull requests of variant drafts. Pure.
 */
import type { CheckOutput } from "../github/port.js";
import type { ResourceOverride } from "../pkg/merge3/package-merge.js";
import { truncateSummary } from "./check-summary.js";
import { formatFieldPath } from "./upgrade.js";

/** The check run reporting a repository's PackageVariants. */
export const PACKAGE_VARIANTS_CHECK_NAME = "porchlight/package-variants";

/** One injection point's outcome, as the variant reconciliation records it (a Kptfile condition). */
export interface InjectionRow {
  file: string;
  conditionType: string;
  status: "True" | "False";
  message: string;
}

/** What the reports name of a PackageVariant (a validated `PackageVariant` fits). */
export interface VariantNames {
  name: string;
  file: string;
  downstream: { package: string };
  upstream: { repo: string; package: string; revision: number | undefined };
}

/** One variant's state. */
export interface VariantRow {
  name: string;
  file: string;
  downstream: string;
  state:
    | "current"
    | "clone"
    | "upgrade"
    | "edit"
    | "held"
    | "rejected"
    | "invalid"
    | "failed"
    | "deleted"
    | "orphaned";
  message?: string;
  pull?: number | undefined;
  injections?: InjectionRow[];
}

const STATE_TEXT: Record<VariantRow["state"], string> = {
  current: "✅ up to date",
  clone: "🆕 clone proposed",
  upgrade: "⬆️ upgrade proposed",
  edit: "✏️ edit proposed",
  held: "✋ draft edited by hand, left alone",
  rejected: "🚫 proposal rejected",
  invalid: "❌ invalid",
  failed: "❌ failed",
  deleted: "🗑️ removed: draft closed and deleted",
  orphaned: "variant removed: draft kept",
};

/** The check output for a repository's variants. */
export function variantsCheckOutput(
  rows: readonly VariantRow[],
  problems: readonly string[],
  notes: readonly string[] = [],
): CheckOutput {
  const bad = rows.filter((r) => r.state === "invalid" || r.state === "failed").length + problems.length;
  const lines = [
    "| variant | downstream | state | pull request |",
    "| --- | --- | --- | --- |",
    ...rows.map(
      (r) =>
        `| \`${r.name}\` | \`${r.downstream}\` | ${STATE_TEXT[r.state]}${r.message ? `: ${r.message.replace(/\n/g, " ").replace(/\|/g, "\\|")}` : ""} | ${r.pull ? `#${r.pull}` : "-"} |`,
    ),
  ];
  const injections = rows.flatMap((r) => (r.injections ?? []).map((i) => ({ r, i })));
  if (injections.length > 0) {
    lines.push("", "### Config injection", "");
    for (const { r, i } of injections) {
      lines.push(
        `- \`${r.name}\` \`${i.file}\` ${i.conditionType}: ${i.status === "True" ? "✅" : "❌"} ${i.message}`,
      );
    }
  }
  if (problems.length > 0) lines.push("", "### Problems", "", ...problems.map((p) => `- ${p}`));
  if (notes.length > 0) lines.push("", "### Notes", "", ...notes.map((n) => `- ${n}`));
  return {
    title:
      bad > 0
        ? `${bad} PackageVariant problem${bad === 1 ? "" : "s"}`
        : `${rows.length} PackageVariant${rows.length === 1 ? "" : "s"} reconciled`,
    summary: truncateSummary(lines.join("\n")),
  };
}

/** The title of a variant's draft pull request. */
export function variantDraftTitle(pv: VariantNames, action: string): string {
  return `PackageVariant ${pv.name}: ${action} ${pv.downstream.package} from ${pv.upstream.package}/v${pv.upstream.revision}`;
}

/** The body of a variant's draft pull request. */
export function variantDraftBody(options: {
  pv: VariantNames;
  action: string;
  overrides: readonly ResourceOverride[];
}): string {
  const { pv, action } = options;
  const lines = [
    `PackageVariant \`${pv.name}\` (\`${pv.file}\`) proposes an **${action}** of \`${pv.downstream.package}\` from \`${pv.upstream.repo}\` \`${pv.upstream.package}/v${pv.upstream.revision}\`, with the variant's package context, functions and injections applied. It is rendered like any draft; merging publishes it.`,
  ];
  if (options.overrides.length > 0) {
    lines.push(
      "",
      "Local edits the upgrade overrides (upstream's value wins):",
      ...options.overrides.map(
        (o) =>
          `- \`${o.file}\` ${o.resource.kind}/${o.resource.name} \`${formatFieldPath(o.path)}\`: \`${o.local}\` → \`${o.upstream ?? "(removed)"}\``,
      ),
    );
  }
  lines.push("", `<!-- porchlight:package-variant ${pv.name} -->`);
  return `${lines.join("\n")}\n`;
}
