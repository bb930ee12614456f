/**
 * Renders packages of a repository at one commit, in memory: one recursive tree read, the blobs of the
 * chosen packages only, the engine on each, and the tree changes that would store the output.
 * Shared by every use-case that renders (draft push, pull request, merge queue).
 */
import path from "node:path/posix";
import type { PackageFiles, PushOnFailure, RenderOptions, RenderResult } from "../engine/types.js";
import type { GitHubPort, RepoRef, RepoTree, TreeChange, TreeEntry } from "../github/port.js";
import type { PackageReport } from "../report/annotations.js";
import type { FunctionRuntime } from "../runtimes/runtime.js";
import { packageEntries } from "./touched-packages.js";

/** The render engine as the use-cases receive it (`renderPackage` from `src/engine/render.ts` + a runtime). */
export interface RenderEngine {
  renderPackage(options: RenderOptions): Promise<RenderResult>;
  runtime: FunctionRuntime;
  /** Working directory for `exec:` functions (only used when the operator allows exec). */
  cwd?: string;
}

/** How many blob reads run at once. */
const BLOB_CONCURRENCY = 8;

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Reads the blobs of one package (subpackages included) from an already-read tree; one read per distinct blob. */
export async function readPackageFiles(options: {
  port: GitHubPort;
  repo: RepoRef;
  entries: Map<string, TreeEntry>;
}): Promise<Map<string, Uint8Array>> {
  const shas = [...new Set([...options.entries.values()].map((e) => e.sha))];
  const blobs = await mapLimit(shas, BLOB_CONCURRENCY, (sha) =>
    options.port.readBlob({ repo: options.repo, sha }),
  );
  const bySha = new Map(shas.map((sha, i) => [sha, blobs[i] as Uint8Array]));
  return new Map([...options.entries].map(([rel, entry]) => [rel, bySha.get(entry.sha) as Uint8Array]));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function asUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Tree changes that turn `input` into `output` under `packagePath` (repository-relative). Content that
 * is not valid UTF-8 is uploaded as a blob first (inline tree content must be text).
 */
export async function packageChanges(options: {
  port: GitHubPort;
  repo: RepoRef;
  packagePath: string;
  input: PackageFiles;
  output: PackageFiles | undefined;
  entries: Map<string, TreeEntry>;
}): Promise<TreeChange[]> {
  const { output, input } = options;
  if (!output) return [];
  const full = (rel: string) => (options.packagePath ? path.join(options.packagePath, rel) : rel);
  const changes: TreeChange[] = [];
  for (const [rel, bytes] of [...output].sort(([a], [b]) => a.localeCompare(b))) {
    const before = input.get(rel);
    if (before && sameBytes(before, bytes)) continue;
    const mode = options.entries.get(rel)?.mode === "100755" ? "100755" : "100644";
    const text = asUtf8(bytes);
    if (text !== undefined) changes.push({ path: full(rel), mode, content: text });
    else
      changes.push({
        path: full(rel),
        mode,
        blobSha: await options.port.createBlob({ repo: options.repo, content: bytes }),
      });
  }
  for (const rel of [...input.keys()].sort()) {
    if (!output.has(rel)) changes.push({ path: full(rel), delete: true });
  }
  return changes;
}

/** Result of {@link renderPackagesAtSha}. */
export interface RenderedPackages {
  tree: RepoTree;
  packages: PackageReport[];
  /** Tree changes storing every package's output (empty when nothing differs). */
  changes: TreeChange[];
}

/**
 * Renders `packagePaths` (repository-relative package roots, `""` = root) of the commit `sha`.
 * `tree` may be passed when the caller already read it. Throws GitHubError when GitHub fails.
 */
export async function renderPackagesAtSha(options: {
  port: GitHubPort;
  repo: RepoRef;
  sha: string;
  tree?: RepoTree;
  packagePaths: readonly string[];
  engine: RenderEngine;
  pushOnFailure?: PushOnFailure;
}): Promise<RenderedPackages> {
  const { port, repo, engine } = options;
  const tree = options.tree ?? (await port.readTree({ repo, sha: options.sha }));
  const packages: PackageReport[] = [];
  const changes: TreeChange[] = [];
  for (const packagePath of options.packagePaths) {
    const entries = packageEntries(tree.entries, packagePath);
    const inputFiles = await readPackageFiles({ port, repo, entries });
    const result = await engine.renderPackage({
      files: inputFiles,
      runtime: engine.runtime,
      packageName: path.basename(packagePath || repo.repo),
      pushOnFailure: options.pushOnFailure ?? "Unrendered",
      cwd: engine.cwd ?? process.cwd(),
    });
    packages.push({ packagePath, result, inputFiles });
    changes.push(
      ...(await packageChanges({
        port,
        repo,
        packagePath,
        input: inputFiles,
        output: result.files,
        entries,
      })),
    );
  }
  return { tree, packages, changes };
}
