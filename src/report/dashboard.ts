/**
 * The package dashboard issue (Renovate's Dependency Dashboard pattern, opted in per repository with
 * `dashboard: true` in `.github/porchlight.yml`): the repository's packages and their latest revisions,
 * the open drafts and proposals with their `porchlight/render` verdict, the downstream packages behind
 * their upstream (as a table and a Mermaid graph) and the upgrades whose render failed. Pure and
 * deterministic (no timestamps): the body changes only when the state does, so an unchanged dashboard
 * is not written again.
 */
import { type GraphEdge, mermaidBlock, revisionNote, revisionState } from "./mermaid.js";

/** Marks the app's dashboard issue (with its label). */
export const DASHBOARD_MARKER = "<!-- porchlight:dashboard -->";
/** The label the dashboard issue carries (how the app finds it again). */
export const DASHBOARD_LABEL = "porchlight-dashboard";
/** The dashboard issue's title. */
export const DASHBOARD_TITLE = "Package dashboard";

/** A render verdict, as the `porchlight/render` check run on the head says it. */
export type Verdict = "success" | "failure" | "neutral" | "pending" | "none";

/** One open Draft or Proposed revision. */
export interface OpenRevision {
  package: string;
  workspace: string;
  lifecycle: "Draft" | "Proposed";
  branch: string;
  pullRequest?: number;
  verdict: Verdict;
  /** An upgrade draft the app opened for an upstream's new revision. */
  upgrade: boolean;
}

/** One downstream of one of this repository's packages. */
export interface DashboardDownstream {
  package: string;
  latest: number | undefined;
  /** `owner/repo/package`. */
  downstream: string;
  revision: number | undefined;
  variant: string | undefined;
}

/** What the dashboard shows. */
export interface DashboardInput {
  /** `owner/repo`. */
  repository: string;
  /** Every package: its path and latest published revision. */
  packages: { path: string; latest: number | undefined }[];
  open: OpenRevision[];
  downstreams: DashboardDownstream[];
}

const VERDICT_TEXT: Record<Verdict, string> = {
  success: "✅ rendered",
  failure: "❌ render failed",
  neutral: "⚪ neutral",
  pending: "⏳ rendering",
  none: "· no check yet",
};

const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;
const rev = (n: number | undefined) => (n === undefined ? "-" : `v${n}`);
const where = (r: OpenRevision) => (r.pullRequest === undefined ? code(r.branch) : `#${r.pullRequest}`);

function packagesSection(input: DashboardInput): string[] {
  if (input.packages.length === 0)
    return ["## Packages", "", "No package (no `Kptfile`) on the default branch yet."];
  const count = (path: string, lifecycle: OpenRevision["lifecycle"]) =>
    input.open.filter((r) => r.package === path && r.lifecycle === lifecycle && !r.upgrade).length;
  const upgrade = (path: string) => {
    const u = input.open.find((r) => r.package === path && r.upgrade);
    return u ? VERDICT_TEXT[u.verdict] : "-";
  };
  return [
    "## Packages",
    "",
    "| package | latest revision | drafts | proposals | upstream upgrade |",
    "| --- | --- | --- | --- | --- |",
    ...input.packages.map(
      (p) =>
        `| ${code(p.path || ".")} | ${rev(p.latest)} | ${count(p.path, "Draft")} | ${count(p.path, "Proposed")} | ${upgrade(p.path)} |`,
    ),
  ];
}

function openSection(input: DashboardInput): string[] {
  const open = input.open.filter((r) => !r.upgrade);
  if (open.length === 0) return ["## Open drafts and proposals", "", "None."];
  return [
    "## Open drafts and proposals",
    "",
    "| package | workspace | lifecycle | where | render |",
    "| --- | --- | --- | --- | --- |",
    ...open.map(
      (r) =>
        `| ${code(r.package || ".")} | ${code(r.workspace)} | ${r.lifecycle} | ${where(r)} | ${VERDICT_TEXT[r.verdict]} |`,
    ),
  ];
}

function downstreamSection(input: DashboardInput): string[] {
  const rows = input.downstreams;
  if (rows.length === 0)
    return ["## Downstreams", "", "No downstream package was cloned from these packages yet."];
  const behind = rows.filter((r) => revisionState(r.latest, r.revision) === "behind");
  const edges: GraphEdge[] = rows.map((r) => ({
    upstream: r.package || ".",
    upstreamNote: r.latest === undefined ? "unpublished" : `latest v${r.latest}`,
    downstream: r.downstream,
    downstreamNote: revisionNote(r.latest, r.revision),
    state: revisionState(r.latest, r.revision),
  }));
  return [
    "## Downstreams",
    "",
    behind.length === 0
      ? `All ${rows.length} downstream package${rows.length === 1 ? " is" : "s are"} on the latest revision.`
      : `${behind.length} of ${rows.length} downstream package${rows.length === 1 ? " is" : "s are"} behind their upstream.`,
    "",
    mermaidBlock(edges).trimEnd(),
    "",
    "| package | latest | downstream | on | behind |",
    "| --- | --- | --- | --- | --- |",
    ...rows.map((r) => {
      const lag =
        r.latest !== undefined && r.revision !== undefined ? Math.max(0, r.latest - r.revision) : undefined;
      return `| ${code(r.package || ".")} | ${rev(r.latest)} | ${code(r.downstream)} | ${rev(r.revision)} | ${lag === undefined ? "-" : lag === 0 ? "0" : `**${lag}**`} |`;
    }),
  ];
}

function upgradeSection(input: DashboardInput): string[] {
  const failed = input.open.filter((r) => r.upgrade && r.verdict === "failure");
  const pending = input.open.filter((r) => r.upgrade && r.verdict !== "failure");
  return [
    "## Upgrades",
    "",
    failed.length === 0
      ? "No failed upgrade."
      : `${failed.length} upgrade${failed.length === 1 ? "" : "s"} failed to render: fix the draft, or close it to drop the upgrade.`,
    ...failed.map(
      (r) =>
        `- ❌ ${code(r.package || ".")}: ${r.pullRequest === undefined ? "" : `#${r.pullRequest} `}${code(r.branch)}`,
    ),
    ...(pending.length > 0
      ? ["", ...pending.map((r) => `- ${VERDICT_TEXT[r.verdict]} ${code(r.package || ".")}: ${where(r)}`)]
      : []),
  ];
}

/** Sorted copies, so the body does not depend on the order GitHub listed things in. */
function sorted(input: DashboardInput): DashboardInput {
  const by =
    <T>(key: (t: T) => string) =>
    (a: T, b: T) =>
      key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
  return {
    ...input,
    packages: [...input.packages].sort(by((p) => p.path)),
    open: [...input.open].sort(by((r) => `${r.package}\u0000${r.workspace}`)),
    downstreams: [...input.downstreams].sort(by((r) => `${r.package}\u0000${r.downstream}`)),
  };
}

/** The issue body for `input`. */
export function dashboardBody(input: DashboardInput): string {
  const s = sorted(input);
  return `${[
    DASHBOARD_MARKER,
    `The packages of ${code(s.repository)} and where each stands. porchlight keeps this issue up to date; set \`dashboard: false\` in \`.github/porchlight.yml\` to stop it (then close the issue).`,
    "",
    ...packagesSection(s),
    "",
    ...openSection(s),
    "",
    ...downstreamSection(s),
    "",
    ...upgradeSection(s),
  ].join("\n")}\n`;
}
