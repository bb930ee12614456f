/**
 * Reading a configured directory of the default branch (the variants, the injectors): its YAML
 * documents as plain data, each with its file, or the file's problem (over the size limit, invalid
 * YAML). Also where such a directory may not lie (inside a package).
 */
import { parseAllDocuments } from "yaml";
import type { RepoRef, TreeEntry } from "../../../github/port.js";
import { isYamlFile } from "../../../pkg/files.js";
import { mainThreadLimitProblem } from "../../main-thread-limits.js";
import type { UpstreamDeps } from "../../upgrade-plan.js";

/** One YAML document of a directory: its data, or why it could not be read (`error`, naming the file). */
export interface YamlItem {
  file: string;
  data: unknown;
  error?: string;
}

/** A setting's directory without leading or trailing slashes (`/variants/` → `variants`). */
export function dirOf(setting: string): string {
  return setting.replace(/^\/+|\/+$/g, "");
}

/** The YAML documents of the files below `dir` in `entries`, files in path order. */
export async function readYamlDir(options: {
  deps: UpstreamDeps;
  repo: RepoRef;
  entries: readonly TreeEntry[];
  dir: string;
}): Promise<YamlItem[]> {
  const files = options.entries.filter(
    (e) => e.type === "blob" && e.path.startsWith(`${options.dir}/`) && isYamlFile(e.path),
  );
  if (files.length === 0) return [];
  // A file over the limit is not even read (its size is in the tree).
  const blobs = await options.deps.port.readBlobs({
    repo: options.repo,
    blobs: files
      .filter((e) => !mainThreadLimitProblem(e.path, e.size))
      .map((e) => ({ sha: e.sha, size: e.size })),
  });
  const out: YamlItem[] = [];
  for (const e of files.sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const bytes = Buffer.from(blobs.get(e.sha) ?? []);
    const tooLarge = mainThreadLimitProblem(e.path, Math.max(e.size ?? 0, bytes.length));
    if (tooLarge) {
      out.push({ file: e.path, data: undefined, error: tooLarge });
      continue;
    }
    const docs = parseAllDocuments(bytes.toString("utf8"));
    for (const doc of Array.isArray(docs) ? docs : [docs]) {
      if (doc.errors.length > 0)
        out.push({ file: e.path, data: undefined, error: `${e.path}: ${doc.errors[0].message}` });
      else if (doc.contents) out.push({ file: e.path, data: doc.toJS() });
    }
  }
  return out;
}

/**
 * The package (repository-relative root, `""` = the repository's root) that holds directory `dir`:
 * the nearest of `dir` and its parents with a Kptfile; undefined when none does.
 */
function enclosingPackage(entries: readonly TreeEntry[], dir: string): string | undefined {
  const kptfiles = new Set(entries.filter((e) => e.type === "blob").map((e) => e.path));
  for (let d = dir; ; d = d.includes("/") ? d.slice(0, d.lastIndexOf("/")) : "") {
    if (kptfiles.has(d === "" ? "Kptfile" : `${d}/Kptfile`)) return d;
    if (d === "") return undefined;
  }
}

/**
 * Problems of the configured variants and injectors directories: one inside a package would be
 * read as that package's content (rendered, its resources changed by the pipeline).
 */
export function directoryProblems(entries: readonly TreeEntry[], settings: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [setting, dir] of Object.entries(settings)) {
    const owner = enclosingPackage(entries, dir);
    if (owner === undefined) continue;
    out.push(
      `.github/porchlight.yml packageVariants.${setting} "${dir}/" lies inside package "${owner || "."}": ` +
        "its files would be rendered as that package's content; name a directory outside every package",
    );
  }
  return out;
}
