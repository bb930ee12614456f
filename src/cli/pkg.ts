/**
 * `porchlight pkg get REPO/DIR[@REF] [DEST] [--strategy S]` and
 * `porchlight pkg update [PKG][@REF] [--strategy S]`: kpt's `pkg get` / `pkg update` with the same
 * arguments, Kptfile and output, over porchlight's own 3-way merge. Upstreams are git repositories
 * (any URL git accepts, or a local directory in a git checkout), read with the `git` binary.
 */
import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { destinationFor, isRelativeRepoPath, PackageRefError, parsePackageRef } from "../pkg/args.js";
import { readTree, writeTreeChanges } from "../pkg/disk.js";
import { type FileTree, KPTFILE } from "../pkg/files.js";
import { getPackage } from "../pkg/get.js";
import { GitFetcher } from "../pkg/git-fetcher.js";
import { parseKptfile } from "../pkg/kptfile.js";
import { defaultMergeSchemas } from "../pkg/merge3/default-schemas.js";
import { UpdateError, updatePackage } from "../pkg/update.js";
import { commandAt, UsageError } from "./commands.js";

const usageOf = (path: string): string => commandAt(path)?.usage ?? "";

const STRATEGIES = ["resource-merge", "fast-forward", "force-delete-replace", "copy-merge"];

/** Where the commands write (injectable for tests). */
export interface PkgIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

const defaultIo = (): PkgIo => ({
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  cwd: process.cwd(),
});

function gitTopLevel(dir: string): string | undefined {
  try {
    return execFileSync("git", ["-C", dir, "rev-parse", "--show-toplevel"], {
      encoding: "utf8",
      stdio: "pipe",
    }).trim();
  } catch {
    return undefined;
  }
}

/** `porchlight pkg get`. Resolves to the exit code. */
export async function runGet(argv: string[], io: PkgIo = defaultIo()): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      strategy: { type: "string", default: "resource-merge" },
      "for-deployment": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
  });
  if (values.help) {
    io.stdout(usageOf("pkg get"));
    return 0;
  }
  if (positionals.length < 1 || positionals.length > 2) {
    io.stderr(`Error: expected REPO/DIR[@REF] [DEST]\n\n${usageOf("pkg get")}`);
    return 1;
  }
  const strategy = values.strategy ?? "resource-merge";
  if (!STRATEGIES.includes(strategy)) {
    io.stderr(
      `Error: unknown update strategy ${JSON.stringify(strategy)}: must be one of ${STRATEGIES.join(",")}\n`,
    );
    return 1;
  }
  const fetcher = new GitFetcher({ warn: (m) => io.stderr(`${m}\n`) });
  try {
    const ref = parsePackageRef(positionals[0], gitTopLevel, io.cwd);
    const dest = destinationFor(path.resolve(io.cwd, positionals[1] ?? "."), ref);
    if (existsSync(dest))
      throw new PackageRefError(`destination directory ${JSON.stringify(dest)} already exists`);
    const version = ref.ref ?? (await fetcher.defaultBranch(ref.repo));
    const files = await getPackage({
      upstream: { repo: ref.repo, directory: ref.directory, ref: version },
      name: path.basename(dest),
      strategy,
      fetcher,
      log: (line) => io.stderr(`${line}\n`),
      ...(values["for-deployment"] ? { forDeployment: {} } : {}),
    });
    await mkdir(dest, { recursive: true });
    await writeTreeChanges(dest, new Map(), files);
    return 0;
  } catch (err) {
    io.stderr(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await fetcher.close();
  }
}

/**
 * The first Kptfile of `tree` whose `upstream` or `upstreamLock` names its repository by a relative
 * path, as an error naming the file (`shown(file)`) and the field; undefined when there is none.
 * git would read such a path from the directory the update runs in (kpt never reads one).
 */
function relativeUpstream(tree: FileTree, shown: (file: string) => string): string | undefined {
  for (const [file, content] of tree) {
    if (file !== KPTFILE && !file.endsWith(`/${KPTFILE}`)) continue;
    let kf: ReturnType<typeof parseKptfile>["kptfile"];
    try {
      kf = parseKptfile(file, content).kptfile;
    } catch {
      continue; // the update reports a Kptfile it cannot read
    }
    for (const [field, repo] of [
      ["upstream.git.repo", kf.upstream?.git?.repo],
      ["upstreamLock.git.repo", kf.upstreamLock?.git?.repo],
    ] as const) {
      if (repo !== undefined && isRelativeRepoPath(repo))
        return (
          `${shown(file)}: ${field} ${JSON.stringify(repo)} is a relative path, which resolves only from the ` +
          `directory the command runs in: set it to the repository's URL or absolute path`
        );
    }
  }
  return undefined;
}

/** `porchlight pkg update`. Resolves to the exit code. */
export async function runUpdate(argv: string[], io: PkgIo = defaultIo()): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { strategy: { type: "string" }, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
  });
  if (values.help) {
    io.stdout(usageOf("pkg update"));
    return 0;
  }
  if (positionals.length > 1) {
    io.stderr(`Error: accepts at most 1 arg(s), received ${positionals.length}\n\n${usageOf("pkg update")}`);
    return 1;
  }
  const parts = (positionals[0] ?? ".").split("@");
  if (parts.length > 2) {
    io.stderr("Error: at most 1 version permitted\n");
    return 1;
  }
  const pkgDir = path.resolve(io.cwd, parts[0] || ".");
  const rel = path.relative(io.cwd, pkgDir);
  if (rel.startsWith("..")) {
    io.stderr(`Error: package path must be under current working directory\n`);
    return 1;
  }
  if (!existsSync(pkgDir) || !statSync(pkgDir).isDirectory()) {
    io.stderr(`Error: ${JSON.stringify(parts[0])} is not a package directory\n`);
    return 1;
  }
  const before = await readTree(pkgDir);
  const relative = relativeUpstream(before, (file) => path.relative(io.cwd, path.join(pkgDir, file)));
  if (relative) {
    io.stderr(`Error: ${relative}\n`);
    return 1;
  }
  const fetcher = new GitFetcher({ warn: (m) => io.stderr(`${m}\n`) });
  try {
    const result = await updatePackage({
      files: before,
      name: path.basename(pkgDir),
      ref: parts[1] || undefined,
      strategy: values.strategy ?? "resource-merge",
      fetcher,
      schemas: defaultMergeSchemas(),
      log: (line) => io.stderr(`${line}\n`),
    });
    await writeTreeChanges(pkgDir, before, result.files);
    return 0;
  } catch (err) {
    if (err instanceof UpdateError) await writeTreeChanges(pkgDir, before, err.files);
    io.stderr(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await fetcher.close();
  }
}

/**
 * `porchlight pkg init [DIR] [--description D --keywords K,.. --site URL]`: kpt's `pkg init` — writes the
 * Kptfile, README.md and package-context.yaml of a new package into DIR (default: the current directory,
 * created when missing); refused when DIR already has a Kptfile. Resolves to the exit code.
 */
export async function runInit(argv: string[], io: PkgIo = defaultIo()): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      description: { type: "string" },
      keywords: { type: "string" },
      site: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
  });
  if (positionals.length > 1)
    throw new UsageError("accepts at most 1 arg(s), received 2 or more", "pkg init");
  const dir = path.resolve(io.cwd, positionals[0] ?? ".");
  if (existsSync(path.join(dir, KPTFILE))) {
    io.stderr(`Error: Kptfile already exists in ${positionals[0] ?? "."}\n`);
    return 1;
  }
  await mkdir(dir, { recursive: true });
  const { initFiles } = await import("../pkg/init-files.js");
  const { writeFile } = await import("node:fs/promises");
  for (const [file, text] of initFiles(path.basename(dir), values)) {
    if (existsSync(path.join(dir, file))) continue;
    io.stdout(`writing ${path.join(positionals[0] ?? ".", file)}\n`);
    await writeFile(path.join(dir, file), text);
  }
  return 0;
}

/** `porchlight pkg <get|update|init> ...`. */
export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    switch (sub) {
      case "get":
        return await runGet(rest);
      case "update":
        return await runUpdate(rest);
      case "init":
        return await runInit(rest);
      default:
        // help and a bare `porchlight pkg` are answered by main.ts from the registered usage
        throw new UsageError(`unknown command ${JSON.stringify(sub)} for "porchlight pkg"`);
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
