/**
 * What users read about upstream upgrades: the upgrade pull request (from which revision to which,
 * what changed upstream, which local edits the merge overrides), the `porchlight/upgrade` check run
 * (a warning annotation at each overridden field) and a failed merge. Pure.
 */
import type { CheckAnnotation, CheckOutput } from "../github/port.js";
import type { ResourceOutcome, ResourceOverride } from "../pkg/merge3/package-merge.js";
import { locateInParsed, type ParsedYaml, parseForLocate } from "./yaml-position.js";

/** The check run reporting what an upgrade overrides. */
export const UPGRADE_CHECK_NAME = "porchlight/upgrade";
/** Marker of the comment telling that a person's push stopped automatic updates. */
export const UPGRADE_HELD_MARKER = "<!-- porchlight:upgrade-held -->";
/** Marker of the note on an upgrade pull request closed because the downstream no longer needs it. */
export const UPGRADE_OBSOLETE_MARKER = "<!-- porchlight:upgrade-obsolete -->";
/** Marker of an upgrade pull request body. */
export const UPGRADE_PULL_MARKER = "<!-- porchlight:upgrade -->";

/** What an upgrade proposes. */
export interface UpgradeState {
  /** Downstream package path. */
  package: string;
  /** Upstream repository (`owner/name`) and package. */
  upstream: { repo: string; package: string };
  /** Revision numbers: the one the downstream is on, the one the pull request upgrades to. */
  from: number | undefined;
  to: number;
  /** The upgrade commit the app wrote (a later head that is not its render means a person pushed). */
  commit: string;
  /** Local edits the merge overrode. */
  overrides: ResourceOverride[];
  /** Resources added or deleted on either side (absent: not known, e.g. not a resource-merge). */
  outcomes?: ResourceOutcome[];
}

const OUTCOME_TEXT: Record<ResourceOutcome["kind"], string> = {
  "added-upstream": "added upstream",
  "deleted-upstream": "deleted upstream, so removed here",
  "kept-changed":
    "deleted upstream but **kept because you changed it**: delete it if upstream replaced it (e.g. renamed it), or keep it on purpose",
  "added-locally": "added by you, kept",
  "deleted-locally": "deleted by you, stays deleted",
};

/** One resource-level outcome as a line: `` `ns.yaml` Namespace/old: deleted upstream but kept ... ``. */
export function describeOutcome(o: ResourceOutcome): string {
  return `\`${o.file}\` ${o.resource.kind}/${o.resource.name}: ${OUTCOME_TEXT[o.kind]}`;
}

/** Resources the merge kept although upstream deleted them: the outcome a reviewer must decide. */
export function keptChanged(state: Pick<UpgradeState, "outcomes">): ResourceOutcome[] {
  return (state.outcomes ?? []).filter((o) => o.kind === "kept-changed");
}

/** The upgrade needs a person's look: it overrides local edits or keeps resources upstream deleted. */
export function upgradeNeedsReview(state: Pick<UpgradeState, "overrides" | "outcomes">): boolean {
  return state.overrides.length > 0 || keptChanged(state).length > 0;
}

function outcomeLines(state: Pick<UpgradeState, "outcomes">): string[] {
  const outcomes = state.outcomes ?? [];
  if (outcomes.length === 0) return ["No resource was added or deleted on either side."];
  const order: ResourceOutcome["kind"][] = [
    "kept-changed",
    "added-upstream",
    "deleted-upstream",
    "added-locally",
    "deleted-locally",
  ];
  return order.flatMap((kind) =>
    outcomes.filter((o) => o.kind === kind).map((o) => `- ${describeOutcome(o)}`),
  );
}

function rev(n: number | undefined, pkg: string): string {
  return n === undefined ? "an unpublished revision" : `\`${pkg}/v${n}\``;
}

/** A field path as users read it: `spec.containers[name=web].image`. */
export function formatFieldPath(path: readonly string[]): string {
  return path.join(".").replace(/\.\[/g, "[");
}

function describeOverride(o: ResourceOverride): string {
  const where = `\`${o.file}\` ${o.resource.kind}/${o.resource.name} \`${formatFieldPath(o.path)}\``;
  return o.kind === "removed"
    ? `${where}: your \`${o.local}\` is removed (upstream removed the field)`
    : `${where}: your \`${o.local}\` becomes upstream's \`${o.upstream}\` (was \`${o.original}\`)`;
}

/** The upgrade pull request's title. */
export function upgradePullTitle(state: UpgradeState): string {
  return `Upgrade ${state.package} to ${state.upstream.package}/v${state.to} (${state.upstream.repo})`;
}

/** The upgrade pull request's body. */
export function upgradePullBody(options: {
  state: UpgradeState;
  strategy: string;
  upstreamChanges: { added: string[]; modified: string[]; removed: string[] };
}): string {
  const { state, upstreamChanges } = options;
  const lines = [
    `Upstream \`${state.upstream.repo}\` published ${rev(state.to, state.upstream.package)}; \`${state.package}\` is on ${rev(state.from, state.upstream.package)}.`,
    `This draft holds \`${state.package}\` updated with kpt's \`${options.strategy}\` strategy and rendered like any draft.`,
    "",
    "### What changed upstream",
  ];
  const changed = [
    ...upstreamChanges.added.map((f) => `- added \`${f}\``),
    ...upstreamChanges.modified.map((f) => `- modified \`${f}\``),
    ...upstreamChanges.removed.map((f) => `- removed \`${f}\``),
  ];
  lines.push(...(changed.length > 0 ? changed : ["- no file changed"]));
  lines.push("", "### Resources added and deleted", ...outcomeLines(state));
  lines.push("", "### Local edits this upgrade overrides");
  if (state.overrides.length === 0) lines.push("None: every local edit is kept.");
  else {
    lines.push(
      "Both upstream and this package changed these fields; kpt's resource-merge takes upstream's value. Review each one (they are also warnings on the `porchlight/upgrade` check):",
      "",
      ...state.overrides.map((o) => `- ${describeOverride(o)}`),
    );
  }
  lines.push("", UPGRADE_PULL_MARKER);
  return `${lines.join("\n")}\n`;
}

/** The comment on an upgrade pull request a person pushed to: the app no longer updates it. */
export function upgradeHeldComment(options: { to: number; pkg: string }): string {
  return `${UPGRADE_HELD_MARKER}\nUpstream published \`${options.pkg}/v${options.to}\`. This pull request was not updated because someone pushed to its branch; porchlight never overwrites that. Merge or close it, and the next upgrade opens a new one.\n`;
}

/**
 * The note on an upgrade pull request the app closes because the downstream `pkg` is already on the newest
 * revision `latest` of `upstream` (the revision the pull request upgraded to was deleted, or the downstream
 * was upgraded another way). The branch stays.
 */
export function upgradeObsoleteComment(options: {
  pkg: string;
  upstream: string;
  current: number;
  latest: number;
}): string {
  const { pkg, upstream, current, latest } = options;
  return `${UPGRADE_OBSOLETE_MARKER}
Closed by porchlight: \`${pkg}\` is on \`${upstream}/v${current}\`, and the newest published revision of \`${upstream}\` is \`${upstream}/v${latest}\`, so this upgrade is no longer needed (the revision it upgraded to was deleted, or \`${pkg}\` was upgraded another way). Its branch is kept; the next revision of \`${upstream}\` opens a new upgrade.
`;
}

/** Warning annotations at each overridden field of `files` (path → text, repository-relative). */
export function overrideAnnotations(options: {
  overrides: readonly ResourceOverride[];
  packagePath: string;
  text: (file: string) => string | undefined;
}): CheckAnnotation[] {
  const out: CheckAnnotation[] = [];
  // Each file parsed once, however many overrides it holds.
  const parsed = new Map<string, ParsedYaml | undefined>();
  for (const o of options.overrides) {
    const path = options.packagePath ? `${options.packagePath}/${o.file}` : o.file;
    if (!parsed.has(path)) {
      const text = options.text(path);
      parsed.set(path, text ? parseForLocate(text) : undefined);
    }
    const file = parsed.get(path);
    const fieldPath = o.path
      .filter((p) => !p.startsWith("[="))
      .map((p) => (p.startsWith("[") ? p.split(",")[0].replace(/\]?$/, "]") : p))
      .join(".")
      .replace(/\.\[/g, "[");
    const pos = file
      ? locateInParsed(file, {
          resourceRef: {
            apiVersion: o.resource.apiVersion,
            kind: o.resource.kind,
            name: o.resource.name,
            ...(o.resource.namespace ? { namespace: o.resource.namespace } : {}),
          },
          fieldPath,
        })
      : undefined;
    out.push({
      path,
      start_line: pos?.line ?? 1,
      end_line: pos?.endLine ?? 1,
      annotation_level: "warning",
      title: "Local edit overridden by upstream",
      message: describeOverride(o).replace(/`/g, ""),
    });
  }
  return out;
}

/** Annotations at each resource the merge added or kept although upstream deleted it (lines of `text`). */
export function outcomeAnnotations(options: {
  outcomes: readonly ResourceOutcome[];
  packagePath: string;
  text: (file: string) => string | undefined;
}): CheckAnnotation[] {
  const out: CheckAnnotation[] = [];
  const parsed = new Map<string, ParsedYaml | undefined>();
  for (const o of options.outcomes) {
    if (o.kind === "deleted-upstream" || o.kind === "deleted-locally") continue;
    const path = options.packagePath ? `${options.packagePath}/${o.file}` : o.file;
    if (!parsed.has(path)) {
      const text = options.text(path);
      parsed.set(path, text ? parseForLocate(text) : undefined);
    }
    const file = parsed.get(path);
    if (!file) continue;
    const { apiVersion, kind, name, namespace } = o.resource;
    const pos = locateInParsed(file, {
      resourceRef: { apiVersion, kind, name, ...(namespace ? { namespace } : {}) },
      fieldPath: "metadata.name",
    });
    out.push({
      path,
      start_line: pos?.line ?? 1,
      end_line: pos?.endLine ?? 1,
      annotation_level: o.kind === "kept-changed" ? "warning" : "notice",
      title:
        o.kind === "kept-changed" ? "Deleted upstream, kept because you changed it" : OUTCOME_TEXT[o.kind],
      message: describeOutcome(o).replace(/`|\*\*/g, ""),
    });
  }
  return out;
}

/** The `porchlight/upgrade` output of an upgrade commit (conclude it neutral when {@link upgradeNeedsReview}). */
export function upgradeCheckOutput(state: UpgradeState, annotations: CheckAnnotation[]): CheckOutput {
  const n = state.overrides.length;
  const kept = keptChanged(state).length;
  const title = [
    n === 0 ? "Upgrade keeps every local edit" : `Upgrade overrides ${n} local edit${n === 1 ? "" : "s"}`,
    ...(kept > 0 ? [`keeps ${kept} resource${kept === 1 ? "" : "s"} upstream deleted`] : []),
  ].join("; ");
  const edits =
    n === 0
      ? `\`${state.package}\`: upgrade to \`${state.upstream.package}/v${state.to}\` merged without overriding local edits.`
      : `\`${state.package}\`: upgrade to \`${state.upstream.package}/v${state.to}\` takes upstream's value where both sides changed a field:\n\n${state.overrides.map((o) => `- ${describeOverride(o)}`).join("\n")}`;
  const resources = state.outcomes
    ? `\n\n### Resources added and deleted\n\n${outcomeLines(state).join("\n")}`
    : "";
  return { title, summary: `${edits}${resources}`, annotations: annotations.slice(0, 50) };
}

/** The label of the issue a failed upgrade opens. */
export const UPGRADE_FAILED_LABEL = "porchlight-upgrade-failed";

/** What fails and what gets a downstream out of it. */
interface UpgradeFailure {
  pkg: string;
  upstream: string;
  to: number;
  message: string;
  /** The repository's name (the first part of its revision NAMEs); default: the way out names `<repo>`. */
  repository?: string;
}

/** The way out of a failed upgrade: a Draft of the upgrade without the merge, to redo the local edits on. */
function wayOut(o: UpgradeFailure): string {
  const name = `${o.repository ?? "<repo>"}.${o.pkg.replaceAll("/", ".")}.main`;
  return `Resolve it with a Draft of the upgrade that takes upstream's \`${o.upstream}/v${o.to}\` as it is, then redo your local edits on it:

\`\`\`sh
porchlight rpkg upgrade ${name} --revision ${o.to} --workspace upgrade-v${o.to} --strategy force-delete-replace
porchlight rpkg pull ${o.repository ?? "<repo>"}.${o.pkg.replaceAll("/", ".")}.upgrade-v${o.to} ${o.pkg.split("/").at(-1)}   # redo your edits, then:
porchlight rpkg push ${o.repository ?? "<repo>"}.${o.pkg.replaceAll("/", ".")}.upgrade-v${o.to} ${o.pkg.split("/").at(-1)}
porchlight rpkg propose ${o.repository ?? "<repo>"}.${o.pkg.replaceAll("/", ".")}.upgrade-v${o.to}
\`\`\`

(\`--strategy copy-merge\` instead keeps your files where upstream did not change them.)`;
}

/** The failed `porchlight/upgrade` output when the merge cannot be done. */
export function upgradeFailureOutput(options: UpgradeFailure): CheckOutput {
  return {
    title: `Upgrade of ${options.pkg} to ${options.upstream}/v${options.to} cannot be merged`,
    summary: `porchlight could not upgrade \`${options.pkg}\` to \`${options.upstream}/v${options.to}\`; no draft was opened.\n\n${options.message}\n\n${wayOut(options)}`,
  };
}

/** The issue a failed upgrade opens (label {@link UPGRADE_FAILED_LABEL}): what failed and the way out. */
export function upgradeFailureIssue(options: UpgradeFailure): { title: string; body: string } {
  return {
    title: `Upgrade of ${options.pkg} to ${options.upstream}/v${options.to} failed`,
    body: `porchlight could not upgrade \`${options.pkg}\` to upstream \`${options.upstream}/v${options.to}\` with kpt's resource-merge, so no upgrade pull request was opened:\n\n> ${options.message.replace(/\n/g, "\n> ")}\n\n${wayOut(options)}\n\nClose this issue once the package is upgraded; a newer upstream revision that fails the same way opens a new one.\n`,
  };
}
