/**
 * What kpt does to every YAML file of a package it fetched or updated (kpt's
 * `addmergecomment.Process`): each resource gets its merge comment and upstream identifier, and
 * every file is written back the way kyaml writes YAML. Plus kpt's comparisons of packages
 * (`PkgDiff`), which look at files after that normalization.
 */
import path from "node:path/posix";
import { isMap } from "yaml";
import { setAnnotations } from "../krm/annotations.js";
import { YamlSyntaxError } from "../krm/yaml-errors.js";
import { parseYamlFile, serializeChanged } from "../krm/yaml-io.js";
import {
  type FileTree,
  inDotGit,
  isYamlFile,
  joinRel,
  KPTFILE,
  ownFiles,
  rootIgnore,
  subtree,
  walkOrder,
} from "./files.js";
import { parseKptfile } from "./kptfile.js";
import { addMergeComment } from "./merge-comments.js";
import { CNRM_BLUEPRINT, normalizeComments, seqIndentOf, stripReaderAnnotations } from "./resource-io.js";

/**
 * Adds merge comments to the resources of every YAML file at or below `dir` (subpackages included)
 * and re-serializes those files as kyaml does. Like kpt, it changes nothing when one of the files
 * is not valid YAML.
 */
export function addMergeComments(tree: FileTree, dir = ""): FileTree {
  const below = subtree(tree, dir);
  const ignored = rootIgnore(below);
  const files = [...below.keys()]
    .filter((f) => isYamlFile(f) && !inDotGit(f) && !ignored?.(f))
    .sort(walkOrder);
  const rewritten = new Map<string, string>();
  for (const file of files) {
    let parsed: ReturnType<typeof parseYamlFile>;
    try {
      parsed = parseYamlFile(file, below.get(file)!.toString("utf8").replace(/\r\n/g, "\n"));
    } catch (err) {
      if (err instanceof YamlSyntaxError) return tree;
      throw err;
    }
    if (parsed.docs.length === 0) continue;
    const text = below.get(file)!.toString("utf8").replace(/\r\n/g, "\n");
    const parts = parsed.docs.map(({ doc, source }) => {
      normalizeComments(doc, text);
      if (isMap(doc.contents)) {
        // kyaml's reader annotates every resource; the annotations map it creates stays where it was put.
        setAnnotations(doc, [["config.kubernetes.io/index", "0"]]);
        addMergeComment(doc);
        stripReaderAnnotations(doc);
      }
      return serializeChanged(doc, source === undefined ? parsed.seqIndent : seqIndentOf(source));
    });
    rewritten.set(file, parts.join("---\n"));
  }
  const out: FileTree = new Map(tree);
  for (const [file, text] of rewritten) out.set(joinRel(dir, file), Buffer.from(text, "utf8"));
  return out;
}

/** kyaml's normalization of a file for comparison (read, drop the cnrm attribution, write). */
function normalizedYaml(file: string, content: Buffer): string | undefined {
  try {
    const parsed = parseYamlFile(file, content.toString("utf8").replace(/\r\n/g, "\n"));
    return parsed.docs
      .map(({ doc, source }) => {
        if (isMap(doc.contents)) {
          setAnnotations(doc, [["config.kubernetes.io/index", "0"]]);
          const meta = doc.contents.get("metadata", true);
          const ann = isMap(meta) ? meta.get("annotations", true) : undefined;
          if (isMap(ann)) ann.delete(CNRM_BLUEPRINT);
          stripReaderAnnotations(doc);
        }
        return serializeChanged(doc, source === undefined ? parsed.seqIndent : seqIndentOf(source));
      })
      .join("---\n");
  } catch (err) {
    if (err instanceof YamlSyntaxError) return undefined;
    throw err;
  }
}

/** Whether two Kptfiles are equal once `upstream` and `upstreamLock` are ignored (kpt's `kptfilesEqual`). */
function kptfilesEqual(file: string, a: Buffer, b: Buffer): boolean {
  const ka = parseKptfile(file, a);
  const kb = parseKptfile(file, b);
  const strip = (k: typeof ka) =>
    JSON.stringify({ ...k.kptfile, upstream: undefined, upstreamLock: undefined, status: k.status });
  return strip(ka) === strip(kb);
}

/**
 * kpt's `PkgDiff`: the files and directories of the package at `dirA` in `a` and `dirB` in `b`
 * (subpackages excluded) that differ — present on one side only, or with different content (YAML
 * compared after kyaml's normalization, Kptfiles without their upstream sections).
 */
export function pkgDiff(a: FileTree, dirA: string, b: FileTree, dirB: string): Set<string> {
  const ta = subtree(a, dirA);
  const tb = subtree(b, dirB);
  const entries = (t: FileTree) => {
    const set = new Set<string>();
    for (const f of ownFiles(t)) {
      set.add(f);
      let d = path.dirname(f);
      while (d !== ".") {
        set.add(d);
        d = path.dirname(d);
      }
    }
    return set;
  };
  const ea = entries(ta);
  const eb = entries(tb);
  const diff = new Set<string>();
  for (const e of ea) if (!eb.has(e)) diff.add(e);
  for (const e of eb) if (!ea.has(e)) diff.add(e);
  for (const e of ea) {
    if (!eb.has(e)) continue;
    const ca = ta.get(e);
    const cb = tb.get(e);
    if (!ca || !cb) continue; // a directory
    if (path.basename(e) === KPTFILE) {
      if (!kptfilesEqual(e, ca, cb)) diff.add(e);
      continue;
    }
    if (ca.equals(cb)) continue;
    const na = normalizedYaml(e, ca);
    const nb = normalizedYaml(e, cb);
    if (na === undefined || nb === undefined || na !== nb) diff.add(e);
  }
  return diff;
}
