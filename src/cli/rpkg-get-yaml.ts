/**
 * `rpkg get -o yaml`: the PackageRevision objects (Porch API `porch.kpt.dev/v1alpha1`) of listed
 * revisions, with the PackageVariant that owns each (`ownerReferences`).
 */
import { parse } from "yaml";
import type { createRestPort } from "../github/rest-client.js";
import { readYamlFile } from "../github/revision-source.js";
import type { PackageRevisionInfo } from "../lifecycle/revision-list.js";
import { OWNER_ANNOTATION } from "../lifecycle/upstream-source.js";

/**
 * PackageRevision-shaped objects (Porch API `porch.kpt.dev/v1alpha1`) in a kubectl `List`: metadata.name,
 * spec.{packageName, repository, workspaceName, revision, lifecycle}, status.upstreamLock (git repo,
 * directory, ref, commit) and labels `kpt.dev/latest-revision: "true"` on the latest, as Porch sets it.
 */
export function toPackageRevisionList(
  rows: PackageRevisionInfo[],
  repoUrl: string,
  /**
   * The PackageVariant that owns a revision: by revision NAME (a draft's own Kptfile), else by package
   * path (its Kptfile annotation on the default branch).
   */
  owners: ReadonlyMap<string, string> = new Map(),
): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "List",
    items: rows.map((r) => ({
      apiVersion: "porch.kpt.dev/v1alpha1",
      kind: "PackageRevision",
      metadata: {
        name: r.name,
        ...(r.latest ? { labels: { "kpt.dev/latest-revision": "true" } } : {}),
        ...(r.pullRequest === undefined
          ? {}
          : { annotations: { "porchlight.dev/pull-request": `${repoUrl}/pull/${r.pullRequest}` } }),
        ...((owners.get(r.name) ?? owners.get(r.packagePath))
          ? {
              ownerReferences: [
                {
                  apiVersion: "config.porch.kpt.dev/v1alpha1",
                  kind: "PackageVariant",
                  name: owners.get(r.name) ?? owners.get(r.packagePath),
                  controller: true,
                },
              ],
            }
          : {}),
      },
      spec: {
        packageName: r.packageName,
        repository: r.repository,
        workspaceName: r.workspace,
        revision: r.revision,
        lifecycle: r.lifecycle,
      },
      status: {
        upstreamLock: {
          type: "git",
          git: {
            repo: `${repoUrl}.git`,
            directory: r.packagePath,
            ref: r.ref.replace(/^refs\/(heads|tags)\//, ""),
            commit: r.sha,
          },
        },
      },
    })),
  };
}

/**
 * The PackageVariant owning each package (annotation `porchlight.dev/package-variant` of its Kptfile
 * on the default branch): package path → variant name. Reads nothing when `kptfiles` is empty.
 */
export async function variantOwners(
  port: ReturnType<typeof createRestPort>,
  options: { repo: { owner: string; repo: string }; sha: string; kptfiles: ReadonlySet<string> },
): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  if (options.kptfiles.size === 0) return owners;
  const tree = await port.readTree({ repo: options.repo, sha: options.sha });
  const entries = tree.entries.filter((e) => e.type === "blob" && options.kptfiles.has(e.path));
  const blobs = await port.readBlobs({
    repo: options.repo,
    blobs: entries.map((e) => ({ sha: e.sha, size: e.size })),
  });
  for (const e of entries) {
    let owner: unknown;
    try {
      owner = parse(Buffer.from(blobs.get(e.sha) ?? []).toString("utf8"))?.metadata?.annotations?.[
        OWNER_ANNOTATION
      ];
    } catch {
      continue;
    }
    if (typeof owner === "string") owners.set(e.path.replace(/\/?Kptfile$/, ""), owner);
  }
  return owners;
}

/**
 * The PackageVariant owning each Draft / Proposed revision, read from the Kptfile on its own branch (a
 * variant's clone draft has no Kptfile on the default branch yet): revision NAME → variant name.
 */
export async function draftOwners(
  port: ReturnType<typeof createRestPort>,
  repo: { owner: string; repo: string },
  rows: readonly PackageRevisionInfo[],
): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  for (const r of rows) {
    if (r.lifecycle === "Published") continue;
    let kptfile: unknown;
    try {
      kptfile = await readYamlFile(port, { repo, path: `${r.packagePath}/Kptfile`, ref: r.sha });
    } catch {
      continue;
    }
    const owner = (kptfile as { metadata?: { annotations?: Record<string, unknown> } } | null)?.metadata
      ?.annotations?.[OWNER_ANNOTATION];
    if (typeof owner === "string") owners.set(r.name, owner);
  }
  return owners;
}
