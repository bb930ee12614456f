/**
 * Fetching upstream package revisions with the `git` binary, as kpt does (`gitutil`): the remote's
 * branches and tags are listed with `git ls-remote`, a ref is resolved preferring the package's own
 * tag (`<directory>/<ref>`, Porch's revision tags), only that revision is fetched (shallow) into a
 * cache repository, and the files below the package directory are read from it. Works with any
 * URL git accepts (https, file://, local paths).
 */
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { isRelativeRepoPath } from "./args.js";
import type { FileTree } from "./files.js";
import type { FetchedPackage, UpstreamFetcher, UpstreamSpec } from "./update.js";

const run = promisify(execFile);

/** A git command that failed, with its stderr. */
export class GitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GitError";
  }
}

interface RemoteRefs {
  heads: Map<string, string>;
  tags: Map<string, string>;
}

/** Options of {@link GitFetcher}. */
export interface GitFetcherOptions {
  /** Directory for cached repositories; default: a temporary directory removed by `close()`. */
  cacheDir?: string;
  /** Warnings (e.g. skipped symlinks). */
  warn?: (message: string) => void;
}

/** kpt's `ResolveTag` search: `<dir>/<ref>` for the directory and each parent, then `<ref>`. */
export function resolvePackageRef(directory: string, ref: string, tags: ReadonlySet<string>): string {
  const parts = directory.split("/");
  while (parts.length > 0) {
    const p = parts.filter((s) => s !== "" && s !== ".").join("/");
    const candidate = p === "" ? ref : `${p}/${ref}`;
    if (tags.has(candidate)) return candidate;
    parts.pop();
  }
  return ref;
}

/** Fetches package revisions from git repositories with the `git` binary. */
export class GitFetcher implements UpstreamFetcher {
  private cacheDir: string | undefined;
  private ownsCache = false;
  private readonly refs = new Map<string, RemoteRefs>();

  constructor(private readonly options: GitFetcherOptions = {}) {
    this.cacheDir = options.cacheDir;
  }

  /** Removes the temporary cache (when this fetcher created it). */
  async close(): Promise<void> {
    if (this.ownsCache && this.cacheDir) await rm(this.cacheDir, { recursive: true, force: true });
  }

  private async git(args: string[], options: { cwd?: string } = {}): Promise<string> {
    try {
      const { stdout } = await run("git", args, {
        cwd: options.cwd,
        env: { ...gitEnv(), GIT_TERMINAL_PROMPT: "0" },
        maxBuffer: 256 * 2 ** 20,
        encoding: "utf8",
      });
      return stdout;
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      throw new GitError(
        `git ${args.filter((a) => !a.startsWith("--git-dir")).join(" ")}: ${(e.stderr ?? e.message).trim()}`,
      );
    }
  }

  private async repoDir(url: string): Promise<string> {
    if (!this.cacheDir) {
      this.cacheDir = await mkdtemp(path.join(os.tmpdir(), "porchlight-git-"));
      this.ownsCache = true;
    }
    const dir = path.join(this.cacheDir, createHash("sha256").update(url).digest("hex").slice(0, 24));
    await mkdir(dir, { recursive: true });
    await this.git(["init", "-q", "--bare", dir]);
    return dir;
  }

  /** Refuses a repository git would read relative to the current directory. Throws {@link GitError}. */
  private checkUrl(url: string): void {
    if (isRelativeRepoPath(url))
      throw new GitError(
        `repository ${JSON.stringify(url)} is a relative path: give a URL or an absolute path`,
      );
  }

  /** The remote's branches and tags (`git ls-remote --heads --tags --refs`). */
  async remoteRefs(url: string): Promise<RemoteRefs> {
    this.checkUrl(url);
    const cached = this.refs.get(url);
    if (cached) return cached;
    const out = await this.git(["ls-remote", "--heads", "--tags", "--refs", url]);
    const refs: RemoteRefs = { heads: new Map(), tags: new Map() };
    for (const line of out.split("\n")) {
      const m = /^([0-9a-f]+)\s+refs\/(heads|tags)\/(.+)$/.exec(line);
      if (!m) continue;
      (m[2] === "heads" ? refs.heads : refs.tags).set(m[3], m[1]);
    }
    this.refs.set(url, refs);
    return refs;
  }

  /** The remote's default branch (`git ls-remote --symref <url> HEAD`). */
  async defaultBranch(url: string): Promise<string> {
    this.checkUrl(url);
    const out = await this.git(["ls-remote", "--symref", url, "HEAD"]);
    const m = /ref: refs\/heads\/(\S+)\s+HEAD/.exec(out);
    if (!m) throw new GitError(`unable to detect default branch in repo ${JSON.stringify(url)}`);
    return m[1];
  }

  async fetch(spec: UpstreamSpec): Promise<FetchedPackage> {
    const refs = await this.remoteRefs(spec.repo);
    const ref = resolvePackageRef(spec.directory, spec.ref, new Set(refs.tags.keys()));
    const dir = await this.repoDir(spec.repo);
    const gitDir = `--git-dir=${dir}`;
    const named = refs.heads.has(ref)
      ? `refs/heads/${ref}`
      : refs.tags.has(ref)
        ? `refs/tags/${ref}`
        : undefined;
    let commit = refs.heads.get(ref) ?? refs.tags.get(ref) ?? ref;
    const fetchAll = () =>
      this.git([
        gitDir,
        "fetch",
        "-q",
        "--no-tags",
        spec.repo,
        "+refs/heads/*:refs/heads/*",
        "+refs/tags/*:refs/tags/*",
      ]);
    if (named) {
      await this.git([gitDir, "fetch", "-q", "--depth=1", "--no-tags", spec.repo, `+${named}:${named}`]);
    } else if (/^[0-9a-f]{40}$/.test(ref)) {
      await this.git([gitDir, "fetch", "-q", "--depth=1", "--no-tags", spec.repo, ref]).catch(fetchAll);
    } else {
      await fetchAll();
      try {
        commit = (await this.git([gitDir, "rev-parse", "--verify", `${ref}^{commit}`])).trim();
      } catch {
        throw new GitError(`unknown ref ${JSON.stringify(ref)} in repo ${JSON.stringify(spec.repo)}`);
      }
    }
    const files = await this.readTree(dir, commit, spec);
    return { files, ref, commit };
  }

  private async readTree(dir: string, commit: string, spec: UpstreamSpec): Promise<FileTree> {
    const gitDir = `--git-dir=${dir}`;
    const sub = spec.directory.replace(/^\/+|\/+$/g, "");
    if (sub !== "") {
      try {
        await this.git([gitDir, "cat-file", "-e", `${commit}^{commit}:${sub}`]);
      } catch {
        throw new GitError(
          `path ${JSON.stringify(spec.directory)} does not exist in repo ${JSON.stringify(spec.repo)}`,
        );
      }
    }
    const listing = await this.git([
      gitDir,
      "ls-tree",
      "-r",
      "-z",
      "--full-tree",
      `${commit}^{commit}`,
      ...(sub ? ["--", sub] : []),
    ]);
    const entries: Array<{ sha: string; file: string }> = [];
    for (const record of listing.split("\0")) {
      if (!record) continue;
      const m = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(record);
      if (!m) continue;
      const [, mode, type, sha, full] = m;
      const rel = sub ? full.slice(sub.length + 1) : full;
      if (mode === "120000") {
        this.options.warn?.(`[Warn] Ignoring symlink ${JSON.stringify(rel)}`);
        continue;
      }
      if (type !== "blob") continue;
      if (rel.split("/").some((p) => p.endsWith(".git"))) continue;
      entries.push({ sha, file: rel });
    }
    const blobs = await catBlobs(
      dir,
      entries.map((e) => e.sha),
    );
    const files: FileTree = new Map();
    for (let i = 0; i < entries.length; i++) files.set(entries[i].file, blobs[i]);
    return files;
  }
}

/** The environment for git: no repository of the caller's leaks in. */
function gitEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith("GIT_") && key !== "GIT_SSH_COMMAND" && !key.startsWith("GIT_CONFIG")) delete env[key];
  }
  return env;
}

/** Reads blobs with one `git cat-file --batch`. */
function catBlobs(dir: string, shas: string[]): Promise<Buffer[]> {
  if (shas.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const child = spawn("git", [`--git-dir=${dir}`, "cat-file", "--batch"], { env: gitEnv() });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new GitError(`git cat-file: ${stderr.trim()}`));
      const all = Buffer.concat(chunks);
      const out: Buffer[] = [];
      let at = 0;
      for (let i = 0; i < shas.length; i++) {
        const nl = all.indexOf(10, at);
        const header = all.subarray(at, nl).toString("utf8");
        const size = Number(header.split(" ")[2]);
        if (!Number.isFinite(size)) return reject(new GitError(`git cat-file: unexpected output ${header}`));
        out.push(Buffer.from(all.subarray(nl + 1, nl + 1 + size)));
        at = nl + 1 + size + 1;
      }
      resolve(out);
    });
    child.stdin.end(`${shas.join("\n")}\n`);
  });
}
