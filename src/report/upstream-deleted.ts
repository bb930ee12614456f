/**
 * The texts of a downstream whose upstream package was deleted (Porch: the upstream PackageRevisions
 * are gone, so no upgrade can come): the note on its closed upgrade pull request or upgrade-failed
 * issue, and its `porchlight/upgrade` check.
 */
import { createHash } from "node:crypto";
import type { CheckOutput } from "../github/port.js";

/** Marker of the note on an upgrade pull request or issue closed because the upstream was deleted. */
export const UPSTREAM_DELETED_MARKER = "<!-- porchlight:upstream-deleted -->";

/** How a downstream's upstream package went. */
export interface UpstreamDeletion {
  /** The downstream package (its path in the downstream repository). */
  pkg: string;
  /** The upstream repository, `owner/repo`. */
  upstream: string;
  /** The upstream package (its directory; "" for the repository root). */
  upstreamPackage: string;
  /**
   * `removed`: its Kptfile is not on the upstream's default branch at `commit`;
   * `revisions-deleted`: it has no published revision left (`rpkg del` of each).
   */
  kind: "removed" | "revisions-deleted";
  /** The upstream's default branch and its head when it was read. */
  branch: string;
  commit: string;
  /** The newest revision tag it had (`base/v3`), when known. */
  lastRevision: string | undefined;
  /** Branches keeping deleted revisions' commits (`deleted/base/v3`), newest first. */
  kept: string[];
}

function what(d: UpstreamDeletion): string {
  const name = `\`${d.upstreamPackage || "(repository root)"}\` of \`${d.upstream}\``;
  const last = d.lastRevision ? `; its last published revision was \`${d.lastRevision}\`` : "";
  const kept = d.kept[0] ? ` (its commit is kept at branch \`${d.kept[0]}\`)` : "";
  return d.kind === "removed"
    ? `The upstream package ${name} was deleted: its Kptfile is not on \`${d.branch}\` at commit \`${d.commit.slice(0, 7)}\`${last}${kept}.`
    : `The upstream package ${name} was deleted: every published revision of it was deleted (\`porchlight rpkg del\`)${last}${kept}.`;
}

function wayOut(d: UpstreamDeletion): string {
  const kptfile = d.pkg ? `${d.pkg}/Kptfile` : "Kptfile";
  return [
    `What \`${d.pkg || "."}\` can do:`,
    `- **keep its copy**: nothing to do, the package stays as it is; to make it standalone, remove \`upstream\` and \`upstreamLock\` from \`${kptfile}\`;`,
    `- **re-point \`upstream\`**: set \`upstream.git\` (\`repo\`, \`directory\`, \`ref\`) and \`upstreamLock\` in \`${kptfile}\` to the package that replaces it; its upgrades then follow that package.`,
    "",
    "Upgrades come back by themselves if the upstream package is published again.",
  ].join("\n");
}

/** The note on a closed upgrade pull request (`kind: "pull"`) or upgrade-failed issue. */
export function upstreamDeletedNote(d: UpstreamDeletion, on: "pull" | "issue"): string {
  const closing =
    on === "pull"
      ? `porchlight closes this upgrade pull request and opens no other for \`${d.pkg || "."}\` while its upstream is gone (its branch is kept).`
      : `porchlight closes this issue: no upgrade of \`${d.pkg || "."}\` is tried while its upstream is gone.`;
  return `${UPSTREAM_DELETED_MARKER}\n### The upstream package was deleted\n\n${what(d)} ${closing}\n\n${wayOut(d)}\n`;
}

/** The `porchlight/upgrade` check on the downstream's default branch head. */
export function upstreamDeletedOutput(d: UpstreamDeletion): CheckOutput {
  return {
    title: `No upgrade for ${d.pkg || "."}: its upstream package was deleted`,
    summary: `${what(d)} No upgrade pull request comes for \`${d.pkg || "."}\`; an open one and an upgrade-failed issue are closed with a note.\n\n${wayOut(d)}`,
  };
}

/** The check run's external id: one run per package and upstream deletion on a downstream commit. */
export function upstreamDeletedId(d: UpstreamDeletion): string {
  const key = `${d.upstream}\u0000${d.upstreamPackage}\u0000${d.kind}`;
  return `upstream-deleted ${d.pkg} ${createHash("sha256").update(key).digest("hex").slice(0, 12)}`;
}
