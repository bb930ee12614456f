/**
 * Renders packages of a repository at one commit, in memory: one recursive tree read, the blobs of the
 * chosen packages only (batched: see the port's `readBlobs`), the engine on each, and the file changes
 * that would store the output. Shared by every use-case that renders (draft, pull request, merge queue,
 * publish). A file or package over the operator's size limits is not read: its package fails with a
 * message naming the file, its size and the limit.
 */
import path from "node:path/posix";
import { sameBytes } from "../engine/bytes.js";
import type {
  KptfileStatusMode,
  PackageFiles,
  PushOnFailure,
  RenderOptions,
  RenderResult,
  StepReport,
} from "../engine/types.js";
import type { FileAddition, FileChanges, GitHubPort, RepoRef, RepoTree, TreeEntry } from "../github/port.js";
import type { PackageReport } from "../report/annotations.js";
import { oversizeMessage } from "../report/messages.js";
import { packageEntries } from "./touched-packages.js";

/** One package render as a use-case asks for it: the package's files, its name, the failure policy. */
export type PackageRender = Pick<RenderOptions, "files" | "packageName" | "pushOnFailure" | "kptfileStatus">;

/**
 * The render engine as the use-cases receive it: the pure engine (`renderPackage` of
 * `src/engine/render.ts`) with its function runtime already bound where the app is assembled
 * (`src/index.ts`: a worker-thread pool whose workers build the runtime, or in process). The
 * use-cases never see a runtime or a working directory.
 */
export interface RenderEngine {
  render(request: PackageRender): Promise<RenderResult>;
  /**
   * Whether rendering a step's output again might change it, as the bound runtime knows its functions
   * (the builtin catalog functions are idempotent; `exec`, container images and Starlark may not be).
   */
  mayNotBeIdempotent(step: StepReport): boolean;
}

/** The operator's size limits of what a render reads (bytes). */
export interface SizeLimits {
  /** Largest file read (`PORCHLIGHT_MAX_FILE_BYTES`). */
  maxFileBytes: number;
  /** Largest package read, subpackages included (`PORCHLIGHT_MAX_PACKAGE_BYTES`). */
  maxPackageBytes: number;
}

/** Defaults of {@link SizeLimits}: 32 MiB per file, 128 MiB per package. */
export const DEFAULT_SIZE_LIMITS: SizeLimits = {
  maxFileBytes: 32 * 1024 * 1024,
  maxPackageBytes: 128 * 1024 * 1024,
};

/** The changed paths of a set of file changes: the files written, then the files deleted. */
export function changedPathsOf(changes: FileChanges): string[] {
  return [...changes.additions.map((a) => a.path), ...changes.deletions];
}

/** No file written, none deleted. */
export function noChanges(changes: FileChanges): boolean {
  return changes.additions.length === 0 && changes.deletions.length === 0;
}

/**
 * File changes that turn `input` into `output` under `packagePath` (repository-relative). A changed file
 * keeps its mode (`100755` stays executable); new files are `100644`.
 */
export function packageChanges(options: {
  packagePath: string;
  input: PackageFiles;
  output: PackageFiles | undefined;
  entries: Map<string, TreeEntry>;
}): FileChanges {
  const { output, input } = options;
  if (!output) return { additions: [], deletions: [] };
  const full = (rel: string) => (options.packagePath ? path.join(options.packagePath, rel) : rel);
  const additions: FileAddition[] = [];
  for (const [rel, bytes] of [...output].sort(([a], [b]) => a.localeCompare(b))) {
    const before = input.get(rel);
    if (before && sameBytes(before, bytes)) continue;
    const mode = options.entries.get(rel)?.mode === "100755" ? "100755" : "100644";
    additions.push({ path: full(rel), content: bytes, mode });
  }
  const deletions = [...input.keys()]
    .filter((rel) => !output.has(rel))
    .sort()
    .map(full);
  return { additions, deletions };
}

/** The first file or package size over `limits`, as a message for the user; `undefined` when none. */
export function oversize(options: {
  packagePath: string;
  entries: Map<string, TreeEntry>;
  limits: SizeLimits;
}): string | undefined {
  const full = (rel: string) => (options.packagePath ? path.join(options.packagePath, rel) : rel);
  let total = 0;
  let largest: [string, number] = ["", 0];
  for (const [rel, entry] of options.entries) {
    const size = entry.size ?? 0;
    total += size;
    if (size > largest[1]) largest = [full(rel), size];
    if (size > options.limits.maxFileBytes)
      return oversizeMessage({
        file: full(rel),
        size,
        limit: options.limits.maxFileBytes,
        setting: "PORCHLIGHT_MAX_FILE_BYTES",
      });
  }
  if (total > options.limits.maxPackageBytes)
    return oversizeMessage({
      file: largest[0],
      size: largest[1],
      limit: options.limits.maxPackageBytes,
      setting: "PORCHLIGHT_MAX_PACKAGE_BYTES",
      packagePath: options.packagePath || ".",
      packageSize: total,
    });
  return undefined;
}

/** A package that was not rendered because it is too large: a failed render with that message. */
function refused(message: string): RenderResult {
  return {
    ok: false,
    files: undefined,
    status: { conditions: [] },
    steps: [],
    error: message,
    failedBeforeRender: true,
  };
}

/** Result of {@link renderPackagesAtSha}. */
export interface RenderedPackages {
  tree: RepoTree;
  packages: PackageReport[];
  /** File changes storing every package's output (none when nothing differs). */
  changes: FileChanges;
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
  /** How the Kptfile status is written (`.github/porchlight.yml` `kptfileStatus`); default `full`. */
  kptfileStatus?: KptfileStatusMode;
  limits?: SizeLimits;
}): Promise<RenderedPackages> {
  const { port, repo, engine } = options;
  const limits = options.limits ?? DEFAULT_SIZE_LIMITS;
  const tree = options.tree ?? (await port.readTree({ repo, sha: options.sha }));
  const perPackage = options.packagePaths.map((packagePath) => {
    const entries = packageEntries(tree.entries, packagePath);
    return { packagePath, entries, tooLarge: oversize({ packagePath, entries, limits }) };
  });
  // Every blob of every package in one batched read.
  const blobs = await port.readBlobs({
    repo,
    blobs: perPackage.flatMap((p) =>
      p.tooLarge ? [] : [...p.entries.values()].map((e) => ({ sha: e.sha, size: e.size })),
    ),
  });
  const packages: PackageReport[] = [];
  const changes: FileChanges = { additions: [], deletions: [] };
  for (const { packagePath, entries, tooLarge } of perPackage) {
    if (tooLarge) {
      packages.push({ packagePath, result: refused(tooLarge), inputFiles: new Map() });
      continue;
    }
    const inputFiles = new Map([...entries].map(([rel, entry]) => [rel, blobs.get(entry.sha) as Uint8Array]));
    const result = await engine.render({
      files: inputFiles,
      packageName: path.basename(packagePath || repo.repo),
      pushOnFailure: options.pushOnFailure ?? "Unrendered",
      ...(options.kptfileStatus ? { kptfileStatus: options.kptfileStatus } : {}),
    });
    packages.push({ packagePath, result, inputFiles });
    const own = packageChanges({ packagePath, input: inputFiles, output: result.files, entries });
    changes.additions.push(...own.additions);
    changes.deletions.push(...own.deletions);
  }
  return { tree, packages, changes };
}

/**
 * Renders the OUTPUT of `rendered` again, in memory (no request): what judging the commit that stores it
 * would find. For an idempotent pipeline nothing but the functions' result messages changes; a
 * pipeline that is not idempotent shows its drift here — so the render commit's one verdict is the one
 * a re-run of that commit gives. Packages whose steps are all builtin functions are not rendered again.
 */
export async function renderOutputAgain(options: {
  rendered: RenderedPackages;
  engine: RenderEngine;
  repo: RepoRef;
  pushOnFailure?: PushOnFailure;
  /** How the Kptfile status is written (`.github/porchlight.yml` `kptfileStatus`); default `full`. */
  kptfileStatus?: KptfileStatusMode;
}): Promise<{ packages: PackageReport[]; changes: FileChanges }> {
  const { rendered, engine } = options;
  const packages: PackageReport[] = [];
  const changes: FileChanges = { additions: [], deletions: [] };
  for (const first of rendered.packages) {
    const inputFiles = first.result.files ?? first.inputFiles;
    if (
      first.result.failedBeforeRender ||
      !first.result.steps.some((step) => engine.mayNotBeIdempotent(step))
    ) {
      packages.push({ packagePath: first.packagePath, result: first.result, inputFiles });
      continue;
    }
    const result = await engine.render({
      files: inputFiles,
      packageName: path.basename(first.packagePath || options.repo.repo),
      pushOnFailure: options.pushOnFailure ?? "Unrendered",
      ...(options.kptfileStatus ? { kptfileStatus: options.kptfileStatus } : {}),
    });
    packages.push({ packagePath: first.packagePath, result, inputFiles });
    const entries = packageEntries(rendered.tree.entries, first.packagePath);
    const own = packageChanges({
      packagePath: first.packagePath,
      input: inputFiles,
      output: result.files,
      entries,
    });
    changes.additions.push(...own.additions);
    changes.deletions.push(...own.deletions);
  }
  return { packages, changes };
}
