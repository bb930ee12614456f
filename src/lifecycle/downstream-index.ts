/**
 * The upstream → downstreams index: which packages of the installation's repositories were cloned
 * from which upstream package, at which revision. Kept current from the Kptfiles on each
 * repository's default branch (a push that changes Kptfiles replaces that repository's entries;
 * reconciliation rebuilds it), so a published revision finds its downstreams without reading every
 * repository. In memory here; the same interface over Redis when `REDIS_URL` is set.
 */
import { parseKptfile } from "../pkg/kptfile.js";
import {
  packageOfDirectory,
  readUpstreamUrl,
  repoKey,
  revisionOfRef,
  upstreamDirectoryProblem,
} from "./upstream-source.js";

/** One downstream package. */
export interface DownstreamEntry {
  /** The downstream repository, `owner/name`. */
  repo: string;
  /** Package path in the downstream repository. */
  package: string;
  /** Its upstream: repository on the app's host (`owner/name`, lower case) and package path. */
  upstream: { repo: string; package: string; url: string; ref: string | undefined };
  /** The locked revision (`upstreamLock.git.ref` / commit), when fetched. */
  lock: { ref: string | undefined; commit: string | undefined; revision: number | undefined };
  /** `upstream.updateStrategy`. */
  strategy: string | undefined;
  /** The PackageVariant that owns the package (Kptfile annotation), if any. */
  variant: string | undefined;
}

/** The index, per installation. */
export interface DownstreamIndex {
  /** Replaces everything known about one repository's downstream packages. */
  setRepository(installationId: number, repo: string, entries: readonly DownstreamEntry[]): Promise<void>;
  /** The downstreams of one upstream package. */
  downstreamsOf(installationId: number, upstreamRepo: string, pkg: string): Promise<DownstreamEntry[]>;
  /** Every downstream of the installation. */
  all(installationId: number): Promise<DownstreamEntry[]>;
}

/** The in-memory index (the embedded default; reconciliation rebuilds it after a restart). */
export class MemoryDownstreamIndex implements DownstreamIndex {
  private readonly byRepo = new Map<string, DownstreamEntry[]>();

  async setRepository(
    installationId: number,
    repo: string,
    entries: readonly DownstreamEntry[],
  ): Promise<void> {
    const key = `${installationId}:${repoKey(repo)}`;
    if (entries.length === 0) this.byRepo.delete(key);
    else this.byRepo.set(key, [...entries]);
  }

  async downstreamsOf(installationId: number, upstreamRepo: string, pkg: string): Promise<DownstreamEntry[]> {
    return (await this.all(installationId)).filter(
      (e) => e.upstream.repo === repoKey(upstreamRepo) && e.upstream.package === pkg,
    );
  }

  async all(installationId: number): Promise<DownstreamEntry[]> {
    const prefix = `${installationId}:`;
    return [...this.byRepo.entries()]
      .filter(([k]) => k.startsWith(prefix))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .flatMap(([, v]) => v);
  }
}

/**
 * The downstream packages of one repository, from its Kptfiles (`path/Kptfile` → text): every
 * package whose `upstream.git.repo` is a repository on `host`. Unreadable Kptfiles are skipped
 * (their packages' checks report them); packages whose upstream URL or directory is refused are added
 * to `refused`.
 */
export function downstreamsInRepository(options: {
  repo: string;
  kptfiles: ReadonlyMap<string, string>;
  host: string;
  ownerAnnotation: string;
  /** Receives the package paths whose `upstream.git.repo` or `directory` is refused (see readUpstreamUrl). */
  refused?: string[];
}): DownstreamEntry[] {
  const out: DownstreamEntry[] = [];
  const dirs = [...options.kptfiles.keys()].map((f) =>
    f === "Kptfile" ? "" : f.slice(0, -"/Kptfile".length),
  );
  // A package inside another is its subpackage: `pkg update` of the outer package updates it.
  const nested = (dir: string) => dirs.some((d) => d !== dir && (d === "" || dir.startsWith(`${d}/`)));
  for (const [file, text] of [...options.kptfiles].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (nested(file === "Kptfile" ? "" : file.slice(0, -"/Kptfile".length))) continue;
    let data: ReturnType<typeof parseKptfile>;
    try {
      data = parseKptfile(file, text);
    } catch {
      continue;
    }
    const git = data.kptfile.upstream?.git;
    if (!git?.repo) continue;
    const pkg = file === "Kptfile" ? "" : file.slice(0, -"/Kptfile".length);
    const reading = readUpstreamUrl(git.repo, options.host);
    if ("refused" in reading || upstreamDirectoryProblem(git.directory)) {
      options.refused?.push(pkg);
      continue;
    }
    const upstream = reading.repo;
    const upstreamPackage = packageOfDirectory(git.directory);
    const lock = data.kptfile.upstreamLock?.git;
    out.push({
      repo: options.repo,
      package: pkg,
      upstream: { repo: repoKey(upstream), package: upstreamPackage, url: git.repo, ref: git.ref },
      lock: { ref: lock?.ref, commit: lock?.commit, revision: revisionOfRef(lock?.ref, upstreamPackage) },
      strategy: data.kptfile.upstream?.updateStrategy,
      variant: data.kptfile.metadata?.annotations?.[options.ownerAnnotation],
    });
  }
  return out;
}
