/**
 * A stateful in-memory GitHub repository behind nock, for lifecycle walkthroughs: commits, trees,
 * blobs, branches, tags, pull requests, comments, check runs and the GraphQL draft conversion behave
 * like GitHub's (fast-forward-only ref updates, 422 on an existing ref). The HTTP routing is
 * ./fake-repo-http.ts. Tests drive events themselves (webhooks are not emitted automatically).
 */
import { createHash } from "node:crypto";
import { expect } from "vitest";
import { blobSha } from "../../helpers/github-mock.js";
import { installHttp } from "./fake-repo-http.js";

type Files = Map<string, string>;

export interface FakePull {
  number: number;
  nodeId: string;
  head: string;
  base: string;
  /** Base sha when the pull request was opened (the diff is computed against it). */
  baseSha: string;
  draft: boolean;
  state: "open" | "closed";
  merged: boolean;
  mergeCommitSha: string | null;
}

export interface FakeCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status?: string;
  conclusion?: string;
  output?: { title?: string; summary?: string; annotations?: unknown[] };
  actions?: { identifier: string }[];
  external_id?: string;
  started_at?: string;
}

export interface FakeComment {
  id: number;
  issue: number;
  body: string;
  user: string;
}

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

function fromEntries(files: Record<string, string>): Files {
  return new Map(Object.entries(files));
}

export class FakeRepo {
  readonly owner = "acme";
  readonly repo = "pkgs";
  readonly defaultBranch = "main";
  readonly blobs = new Map<string, string>();
  readonly trees = new Map<string, Files>();
  readonly commits = new Map<string, { tree: string; parents: string[]; message: string }>();
  readonly heads = new Map<string, string>();
  readonly tags = new Map<string, string>();
  readonly pulls = new Map<number, FakePull>();
  readonly comments: FakeComment[] = [];
  readonly issues: {
    number: number;
    title: string;
    body: string;
    labels: string[];
    state: "open" | "closed";
    author: string;
  }[] = [];
  readonly checkRuns: FakeCheckRun[] = [];
  readonly requests: { method: string; path: string; body: unknown }[] = [];
  readonly violations: string[] = [];
  /** Text of `.github/porchlight.yml` on the default branch (served by the contents API), if any. */
  config: string | undefined;
  #ids = 1;

  /** A fresh id for check runs and comments. */
  nextId(): number {
    return this.#ids++;
  }

  constructor(files: Record<string, string>) {
    this.heads.set(this.defaultBranch, this.#commit(fromEntries(files), [], "initial"));
  }

  get fullName(): string {
    return `${this.owner}/${this.repo}`;
  }

  /** Stores a tree (and its blobs); returns its sha. */
  storeTree(files: Files): string {
    const sorted = [...files].sort(([a], [b]) => a.localeCompare(b));
    for (const [, content] of sorted) this.blobs.set(blobSha(content), content);
    const sha = sha1(`tree ${JSON.stringify(sorted)}`);
    this.trees.set(sha, new Map(sorted));
    return sha;
  }

  #commit(files: Files, parents: string[], message: string): string {
    const tree = this.storeTree(files);
    const sha = sha1(`commit ${tree} ${parents.join(",")} ${message} ${this.commits.size}`);
    this.commits.set(sha, { tree, parents, message });
    return sha;
  }

  /** Files of a commit, tree or branch. */
  files(ref: string): Files {
    const sha = this.heads.get(ref) ?? this.tags.get(ref) ?? ref;
    const tree = this.commits.get(sha)?.tree ?? sha;
    const files = this.trees.get(tree);
    if (!files) throw new Error(`fake-repo: unknown ref ${ref}`);
    return files;
  }

  /** Text of one file at a ref, or undefined. */
  read(ref: string, path: string): string | undefined {
    return this.files(ref).get(path);
  }

  /** A user's `git push`: one commit on `branch` (created from `from` when new). Returns before/after. */
  push(options: { branch: string; changes: Record<string, string | null>; message?: string; from?: string }) {
    const before = this.heads.get(options.branch);
    const from = options.from ?? this.defaultBranch;
    const parent = before ?? this.heads.get(from) ?? from;
    const files = new Map(this.files(parent));
    for (const [path, content] of Object.entries(options.changes)) {
      if (content === null) files.delete(path);
      else files.set(path, content);
    }
    const after = this.#commit(files, [parent], options.message ?? "Edit package");
    this.heads.set(options.branch, after);
    return { before: before ?? "0".repeat(40), after, paths: Object.keys(options.changes).sort() };
  }

  /** Opens a pull request from `head` into the default branch. */
  openPull(head: string, options: { draft?: boolean } = {}): FakePull {
    const number = this.pulls.size + 1;
    const pull: FakePull = {
      number,
      nodeId: `PR_kwDO${number}`,
      head,
      base: this.defaultBranch,
      baseSha: this.heads.get(this.defaultBranch)!,
      draft: options.draft ?? false,
      state: "open",
      merged: false,
      mergeCommitSha: null,
    };
    this.pulls.set(number, pull);
    return pull;
  }

  /** Merges a pull request with a merge commit (parents: base, head); the base branch moves. */
  merge(number: number): string {
    const pull = this.pulls.get(number)!;
    const base = this.heads.get(pull.base)!;
    const head = this.heads.get(pull.head)!;
    const merged = new Map(this.files(base));
    for (const path of this.diff(pull.baseSha, head)) {
      const content = this.files(head).get(path);
      if (content === undefined) merged.delete(path);
      else merged.set(path, content);
    }
    const sha = this.#commit(
      merged,
      [base, head],
      `Merge pull request #${number} from ${this.owner}/${pull.head}`,
    );
    this.heads.set(pull.base, sha);
    Object.assign(pull, { state: "closed", merged: true, mergeCommitSha: sha });
    return sha;
  }

  /** Closes a pull request without merging. */
  close(number: number): void {
    Object.assign(this.pulls.get(number)!, { state: "closed" });
  }

  /** Paths whose content differs between two commits/trees/branches. */
  diff(base: string, head: string): string[] {
    const a = this.files(base);
    const b = this.files(head);
    return [...new Set([...a.keys(), ...b.keys()])].filter((p) => a.get(p) !== b.get(p)).sort();
  }

  /** True when `ancestor` is `sha` or one of its ancestors. */
  isAncestor(ancestor: string, sha: string): boolean {
    const stack = [sha];
    while (stack.length) {
      const s = stack.pop()!;
      if (s === ancestor) return true;
      stack.push(...(this.commits.get(s)?.parents ?? []));
    }
    return false;
  }

  /** The nearest common ancestor of two commits (what a three-dot compare diffs from), if any. */
  mergeBase(a: string, b: string): string | undefined {
    const ancestors = new Set<string>();
    const stack = [a];
    while (stack.length) {
      const s = stack.pop()!;
      if (ancestors.has(s) || !this.commits.has(s)) continue;
      ancestors.add(s);
      stack.push(...(this.commits.get(s)?.parents ?? []));
    }
    const queue = [b];
    for (let i = 0; i < queue.length; i++) {
      const s = queue[i]!;
      if (ancestors.has(s)) return s;
      queue.push(...(this.commits.get(s)?.parents ?? []));
    }
    return undefined;
  }

  /** Check runs on `sha` named `porchlight/render`, oldest first. */
  checksOn(sha: string): FakeCheckRun[] {
    return this.checkRuns.filter((c) => c.head_sha === sha && c.name === "porchlight/render");
  }

  /** The check GitHub would use for a required status check: the latest one of that name on `sha`. */
  latestCheck(sha: string): FakeCheckRun | undefined {
    return this.checksOn(sha).at(-1);
  }

  /** Routes every GitHub API request of this repository to the fake (persisting nock interceptors). */
  install(): this {
    installHttp(this);
    return this;
  }

  /** Fails the test on an invalid body or an unrouted request. */
  assertClean(): void {
    expect(this.violations).toEqual([]);
  }
}
