/**
 * kpt's path invariants on a function's output (`enforcePathInvariants` in kpt's function runner):
 * a resource's `config.kubernetes.io/path` is relative to its package and must stay inside it
 * (`function must not modify resources outside of package: resource has path ../x.yaml`). On top
 * of kpt's `../` rule and its duplicate path/index rule, porchlight also refuses what would make
 * writing the package fail half-way or write outside it: a path into `.git` (never package content),
 * a path naming a directory of the package
 * (`config.kubernetes.io/path cannot be a directory: d`) and a path below a file.
 */
import { posix } from "node:path";
import { joinPath } from "../krm/package-tree.js";
import { type Entry, entryLocation } from "./entries.js";
import { defaultPath, packageRelative } from "./output.js";
import type { StepOutcome } from "./step.js";
import type { StepStatus } from "./types.js";

/** The directories implied by a set of file paths (`a/b/c.yaml` -> `a`, `a/b`). */
export function directoriesOf(paths: Iterable<string>): Set<string> {
  const dirs = new Set<string>();
  for (const file of paths) {
    let i = file.indexOf("/");
    while (i > 0) {
      dirs.add(file.slice(0, i));
      i = file.indexOf("/", i + 1);
    }
  }
  return dirs;
}

/** Whether a slash-separated path has a `.git` segment. */
function hasGitSegment(clean: string): boolean {
  return clean === ".git" || clean.startsWith(".git/") || clean.endsWith("/.git") || clean.includes("/.git/");
}

/**
 * Checks the path annotations of a function's output `entries` against the package's `files`
 * (root-relative POSIX paths). Returns the first problem in kpt's wording, or undefined.
 */
export function pathInvariantProblem(
  entries: readonly Entry[],
  files: ReadonlySet<string>,
): string | undefined {
  const placed: Array<{ rel: string; file: string }> = [];
  // The indexes taken in each file (kpt's path and index pairs).
  const taken = new Map<string, Set<number | undefined>>();
  // Resources of one file share their path annotation: its checks and its file are taken once.
  const fileOf = new Map<string, Map<string, string>>();
  let last: { pkg: string; rel: string; file: string; indexes: Set<number | undefined> } | undefined;
  for (const entry of entries) {
    // A resource without a path goes to kyaml's default `[<namespace>/]<kind>_<name>.yaml`, which a
    // namespace such as `../..` would move outside the package too.
    const location = entryLocation(entry);
    const rel = location.path ?? defaultPath(entry.node);
    if (last?.pkg !== entry.pkg || last.rel !== rel) {
      let byRel = fileOf.get(entry.pkg);
      if (!byRel) {
        byRel = new Map();
        fileOf.set(entry.pkg, byRel);
      }
      let file = byRel.get(rel);
      if (file === undefined) {
        const clean = packageRelative(rel);
        if (clean === ".." || clean.startsWith("../") || hasGitSegment(clean)) {
          return `function must not modify resources outside of package: resource has path ${rel}`;
        }
        if (clean === "." || clean === "" || rel.endsWith("/")) {
          return `config.kubernetes.io/path cannot be a directory: ${rel}`;
        }
        file = posix.normalize(joinPath(entry.pkg, clean));
        byRel.set(rel, file);
        placed.push({ rel, file });
      }
      let indexes = taken.get(file);
      if (!indexes) {
        indexes = new Set();
        taken.set(file, indexes);
      }
      last = { pkg: entry.pkg, rel, file, indexes };
    }
    // kpt's enforcePathInvariants: no two resources at the same path and index.
    if (location.path !== undefined) {
      if (last.indexes.has(location.index)) {
        const index = location.index === undefined ? "" : String(location.index);
        return `resource at path ${JSON.stringify(posix.normalize(rel))} and index ${JSON.stringify(index)} already exists`;
      }
      last.indexes.add(location.index);
    }
  }
  const allFiles = new Set(files);
  for (const p of placed) allFiles.add(p.file);
  const dirs = directoriesOf(allFiles);
  // The directory checks depend on the file only: the first resource placed in a file names it.
  const checked = new Set<string>();
  for (const { rel, file } of placed) {
    if (checked.has(file)) continue;
    checked.add(file);
    if (dirs.has(file)) return `config.kubernetes.io/path cannot be a directory: ${rel}`;
    for (let i = file.indexOf("/"); i > 0; i = file.indexOf("/", i + 1)) {
      const parent = file.slice(0, i);
      if (allFiles.has(parent)) {
        return `config.kubernetes.io/path cannot be below a file: ${rel} (${parent} is a file)`;
      }
    }
  }
  return undefined;
}

/**
 * Applies {@link pathInvariantProblem} to a mutator's step outcome (`input` = the step's input
 * entries): a violation fails the step with an execution error and drops its output; the step
 * records no results, as in kpt (the error comes before the results are parsed).
 */
export function enforcePathInvariants(
  outcome: StepOutcome,
  input: Entry[],
  files: ReadonlySet<string>,
): StepOutcome {
  if (outcome.failure !== undefined || outcome.entries === input) return outcome;
  const problem = pathInvariantProblem(outcome.entries, files);
  if (!problem) return outcome;
  const { image, exec } = outcome.status;
  const status: StepStatus = image
    ? { image, exitCode: 1, executionError: problem }
    : { exec, exitCode: 1, executionError: problem };
  return { ...outcome, status, entries: input, failure: problem, results: [] };
}
