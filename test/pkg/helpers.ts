/** Test helpers for `src/pkg`: trees from strings or directories, and an in-memory upstream. */
import type { FileTree } from "../../src/pkg/files.js";
import type { FetchedPackage, UpstreamFetcher, UpstreamSpec } from "../../src/pkg/update.js";

/** A tree from `{ path: text }`. */
export function tree(files: Record<string, string>): FileTree {
  return new Map(Object.entries(files).map(([k, v]) => [k, Buffer.from(v, "utf8")]));
}

/** The text of every file of a tree, by path (sorted). */
export function texts(t: FileTree): Record<string, string> {
  return Object.fromEntries(
    [...t.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, v.toString("utf8")]),
  );
}

/** An upstream repository held in memory: `revisions[ref]` is the repository's files at that ref. */
export class MemoryUpstream implements UpstreamFetcher {
  readonly requests: UpstreamSpec[] = [];
  constructor(private readonly revisions: Record<string, { commit: string; files: FileTree }>) {}

  async fetch(spec: UpstreamSpec): Promise<FetchedPackage> {
    this.requests.push(spec);
    const rev = this.revisions[spec.ref] ?? Object.values(this.revisions).find((r) => r.commit === spec.ref);
    if (!rev) throw new Error(`unknown ref ${spec.ref}`);
    const dir = spec.directory.replace(/^\/+|\/+$/g, "");
    const files: FileTree = new Map();
    for (const [file, content] of rev.files) {
      if (dir === "") files.set(file, content);
      else if (file.startsWith(`${dir}/`)) files.set(file.slice(dir.length + 1), content);
    }
    return { files, ref: spec.ref, commit: rev.commit };
  }
}
