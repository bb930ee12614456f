/**
 * The upgrade of a downstream package, computed and not written: where the package's upstream is and
 * where it stands (its Kptfile's `upstream` / `upstreamLock`, the upstream's newest `<package>/v<N>` tag),
 * and kpt's update to a revision (`kpt pkg update`, the Kptfile's strategy). The upgrade pull requests
 * and the PackageVariant reconciliation both stand on it.
 */
import path from "node:path/posix";
import type { RepoRef } from "../github/port.js";
import type { FileTree } from "../pkg/files.js";
import { parseKptfile } from "../pkg/kptfile.js";
import { defaultMergeSchemas } from "../pkg/merge3/default-schemas.js";
import type { ResourceOverride } from "../pkg/merge3/package-merge.js";
import {
  type FetchedPackage,
  type UpstreamFetcher,
  type UpstreamSpec,
  updatePackage,
} from "../pkg/update.js";
import type { UpgradeState } from "../report/upgrade.js";
import type { LifecycleDeps } from "./deps.js";
import { mainThreadLimitProblem } from "./main-thread-limits.js";
import { latestRevision } from "./revision-naming.js";
import type { UpstreamAccess } from "./upstream-consent.js";
import {
  GitHubUpstreamFetcher,
  readPackageFiles,
  UpstreamBlockedError,
  type UpstreamPort,
} from "./upstream-port.js";
import {
  OWNER_ANNOTATION,
  packageOfDirectory,
  readUpstreamUrl,
  refForRevision,
  repoKey,
  revisionOfRef,
  upstreamDirectoryProblem,
} from "./upstream-source.js";

/** What the upstream use-cases need beyond {@link LifecycleDeps}. */
export interface UpstreamDeps extends Omit<LifecycleDeps, "port"> {
  port: UpstreamPort;
  /** The GitHub host upstream URLs are read against (`github.com`, a GHE host, `127.0.0.1:8080`). */
  host: string;
  /** The web base URL of that host (`https://github.com`): what clones write as `upstream.git.repo`. */
  webBase: string;
  /** Whether the job's repository may read an upstream repository (consent; see ./upstream-consent.ts). */
  access: (upstream: RepoRef) => Promise<UpstreamAccess>;
}

/** The computed upgrade of a package (nothing written yet). */
export interface ComputedUpgrade {
  files: FileTree;
  overrides: ResourceOverride[];
  state: Omit<UpgradeState, "commit">;
  strategy: string;
  upstreamChanges: { added: string[]; modified: string[]; removed: string[] };
}

/** Upstream reads that remember what was fetched (to describe what changed upstream). */
class RecordingFetcher implements UpstreamFetcher {
  readonly fetched: FetchedPackage[] = [];
  constructor(private readonly inner: UpstreamFetcher) {}
  async fetch(spec: UpstreamSpec): Promise<FetchedPackage> {
    const result = await this.inner.fetch(spec);
    this.fetched.push(result);
    return result;
  }
}

function diffFiles(before: FileTree, after: FileTree) {
  const added = [...after.keys()].filter((f) => !before.has(f)).sort();
  const removed = [...before.keys()].filter((f) => !after.has(f)).sort();
  const modified = [...after.keys()]
    .filter((f) => before.has(f) && !before.get(f)!.equals(after.get(f)!))
    .sort();
  return { added, modified, removed };
}

/** Where a downstream package's upstream is, and where it stands. */
export interface DownstreamStatus {
  files: FileTree;
  executables: Set<string>;
  upstream: RepoRef;
  upstreamPackage: string;
  ref: string | undefined;
  strategy: string;
  /** The PackageVariant that owns the package: it, not an upgrade pull request, moves the package. */
  variant: string | undefined;
  current: number | undefined;
  latest: number | undefined;
}

/**
 * Reads a downstream package and the newest published revision of its upstream; undefined when the
 * package has no Kptfile or no upstream. Throws {@link UpstreamBlockedError} when its upstream URL or
 * directory is refused or `access` refuses to read that repository (the reason names which).
 */
export async function downstreamStatus(options: {
  port: UpstreamPort;
  host: string;
  repo: RepoRef;
  pkg: string;
  sha: string;
  access: (upstream: RepoRef) => Promise<UpstreamAccess>;
}): Promise<DownstreamStatus | undefined> {
  const { port } = options;
  const local = await readPackageFiles({ port, repo: options.repo, sha: options.sha, dir: options.pkg });
  const kf = local.files.get("Kptfile");
  if (!kf) return undefined;
  const tooLarge = mainThreadLimitProblem(path.join(options.pkg, "Kptfile"), kf.length);
  if (tooLarge) throw new UpstreamBlockedError(tooLarge);
  let kptfile: ReturnType<typeof parseKptfile>["kptfile"];
  try {
    kptfile = parseKptfile(path.join(options.pkg, "Kptfile"), kf).kptfile;
  } catch {
    return undefined;
  }
  const git = kptfile.upstream?.git;
  const variant = kptfile.metadata?.annotations?.[OWNER_ANNOTATION];
  if (!git?.repo) return undefined;
  const reading = readUpstreamUrl(git.repo, options.host);
  if ("refused" in reading) throw new UpstreamBlockedError(reading.refused);
  const directoryProblem = upstreamDirectoryProblem(git.directory);
  if (directoryProblem) throw new UpstreamBlockedError(directoryProblem);
  const upstream = { owner: reading.repo.owner, repo: reading.repo.name };
  const access = await options.access(upstream);
  if (!access.allowed) throw new UpstreamBlockedError(access.reason);
  const upstreamPackage = packageOfDirectory(git.directory);
  const tags = await port.listTags({
    repo: upstream,
    prefix: upstreamPackage ? `${upstreamPackage}/v` : "v",
  });
  return {
    files: local.files,
    executables: local.executables,
    upstream,
    upstreamPackage,
    ref: git.ref,
    strategy: kptfile.upstream?.updateStrategy ?? "resource-merge",
    variant,
    current: revisionOfRef(kptfile.upstreamLock?.git?.ref, upstreamPackage),
    latest: latestRevision(
      tags.map((t) => t.name),
      upstreamPackage,
    ),
  };
}

/**
 * Computes the upgrade of a downstream package to revision `to` (kpt's update). Throws the update's
 * error (`MergeError`, `UpdateError`, ...) when it cannot be done.
 */
export async function computeUpgrade(options: {
  port: UpstreamPort;
  host: string;
  pkg: string;
  status: DownstreamStatus;
  to: number;
  /** The ref to update to; default: revision `to` in the Kptfile's ref style. */
  ref?: string;
  /** Upstream reads; default: the port, through `access`. */
  fetcher?: UpstreamFetcher;
  /** Consent for the default fetcher's reads (see ./upstream-consent.ts). */
  access?: (upstream: RepoRef) => Promise<UpstreamAccess>;
}): Promise<ComputedUpgrade> {
  const { status, to, pkg } = options;
  const fetcher = new RecordingFetcher(
    options.fetcher ??
      new GitHubUpstreamFetcher({
        port: options.port,
        host: options.host,
        ...(options.access ? { access: options.access } : {}),
      }),
  );
  const result = await updatePackage({
    files: status.files,
    name: path.basename(pkg) || "package",
    ref: options.ref ?? refForRevision(status.ref, status.upstreamPackage, to),
    strategy: status.strategy,
    fetcher,
    schemas: defaultMergeSchemas(),
  });
  const [updated, origin] = fetcher.fetched;
  return {
    files: result.files,
    overrides: result.overrides,
    strategy: status.strategy,
    state: {
      package: pkg,
      upstream: {
        repo: repoKey(`${status.upstream.owner}/${status.upstream.repo}`),
        package: status.upstreamPackage,
      },
      from: status.current,
      to,
      overrides: result.overrides,
      outcomes: result.outcomes,
    },
    upstreamChanges: diffFiles(origin?.files ?? new Map(), updated?.files ?? new Map()),
  };
}
