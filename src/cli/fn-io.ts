/**
 * What `render` and `fn eval` share on disk and on stdout: resolving the package argument, the
 * results directory, kpt's `-o stdout` / `-o unwrap` / `-o <dir>` output.
 */
import { lstatSync, mkdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Document, isMap, isNode, isSeq, type YAMLMap } from "yaml";
import { getAnnotation, SEQ_INDENT, stripPipelineAnnotations } from "../krm/annotations.js";
import type { KrmResource } from "../krm/resource-list.js";
import {
  foldDocumentComment,
  goNormalize,
  goStringifyOptions,
  type SeqIndent,
  serializeChanged,
} from "../krm/yaml-io.js";
import { std } from "./std-write.js";

const err = (text: string): void => std.write(2, text);

/** `lstat` of a path, or undefined when it cannot be read (missing, not below a directory, no access). */
function lstatOrUndefined(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

/**
 * The package directory for a `PKG_PATH` argument (absolute). A symlink is resolved with kpt's
 * `[WARN]` line on stderr. @throws Error (kpt's words) when it is missing or not a directory.
 */
export async function resolvePackage(pkgPath: string): Promise<string> {
  const abs = path.resolve(pkgPath);
  const info = lstatOrUndefined(abs);
  if (!info) throw new Error(`missing package path ${JSON.stringify(pkgPath)}: no such file or directory`);
  if (!info.isSymbolicLink()) return notAFile(abs, info.isDirectory());
  const real = realpathSync(abs);
  const shown = path.relative(process.cwd(), real) || ".";
  err(
    `[WARN] resolved symlink ${JSON.stringify(pkgPath)} to ${JSON.stringify(shown)}, please note that the symlinks within the package are ignored\n`,
  );
  return notAFile(real, statSync(real).isDirectory());
}

/** A package path must be a directory (kpt: the Kptfile below it cannot be read otherwise). */
function notAFile(dir: string, isDirectory: boolean): string {
  if (isDirectory) return dir;
  throw new Error(
    `Kptfile at ${JSON.stringify(dir)} can't be read.\n\nDetails:\nopen ${path.join(dir, "Kptfile")}: not a directory`,
  );
}

/**
 * Why `-o <dir>` cannot be written, checked before anything runs: it exists (kpt's words), or a
 * parent of it is not a directory. Undefined when it can be.
 */
export function outputDirProblem(output: string): string | undefined {
  if (lstatOrUndefined(path.resolve(output))) {
    return `directory ${JSON.stringify(output)} already exists, please delete the directory and retry`;
  }
  const blocked = blockingParent(output);
  return blocked && `cannot create the output directory ${JSON.stringify(output)}: ${blocked}`;
}

/** `"<parent>" is a file, not a directory` for the nearest existing parent of `p` when it is no directory. */
function blockingParent(p: string): string | undefined {
  for (let parent = path.dirname(p); ; parent = path.dirname(parent)) {
    let info: ReturnType<typeof statSync> | undefined;
    try {
      info = statSync(path.resolve(parent));
    } catch {
      // missing (or unreadable): look further up
    }
    if (info?.isDirectory()) return undefined;
    if (info) {
      return `${JSON.stringify(parent)} ${info.isFile() ? "is a file, not a directory" : "is not a directory"}`;
    }
    if (path.dirname(parent) === parent) return undefined;
  }
}

/** kpt creates `--results-dir` before rendering; a path that is not a directory fails first. */
export async function ensureResultsDir(dir: string): Promise<string | undefined> {
  try {
    mkdirSync(path.resolve(dir), { recursive: true });
    const results = path.join(dir, "results.yaml");
    const info = lstatOrUndefined(path.resolve(results));
    if (info && !info.isFile())
      return `cannot write results file ${JSON.stringify(results)}: not a regular file`;
    return undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === "EEXIST" || code === "ENOTDIR" ? `mkdir ${dir}: not a directory` : (e as Error).message;
    return `cannot read or create results dir ${JSON.stringify(dir)}: ${why}`;
  }
}

/**
 * kpt's `-o stdout`: the resources in a `ResourceList`, written as kyaml's ByteWriter writes it
 * (compact sequences throughout, Go's yaml.v3 formatting: no blank lines, unpadded flow maps).
 */
export function resourceListText(resources: KrmResource[]): string {
  const list = new Document(
    { apiVersion: "config.kubernetes.io/v1", kind: "ResourceList", items: [] },
    { customTags: ["binary", "timestamp"] },
  );
  const items: unknown = (list.contents as YAMLMap).get("items", true);
  if (!isSeq(items)) return list.toString();
  for (const doc of resources) {
    const node = doc.contents;
    if (isMap(node)) {
      // yaml.v3 writes the head comment of an item's first key above the item's `- `.
      const key = node.items[0]?.key;
      const keyComment = isNode(key) ? key.commentBefore : undefined;
      const comments = [doc.commentBefore, node.commentBefore, keyComment].filter((c): c is string => !!c);
      if (comments.length > 0) node.commentBefore = comments.join("\n");
      if (isNode(key)) key.commentBefore = undefined;
    }
    items.items.push(node);
  }
  goNormalize(list);
  return list.toString(goStringifyOptions("compact"));
}

/** kpt's `-o unwrap`: the resources as YAML documents, reader annotations removed, each with its own sequence indentation. */
export function unwrapText(resources: KrmResource[]): string {
  return resources
    .map((doc) => {
      const seq = (getAnnotation(doc, SEQ_INDENT) ?? "compact") as SeqIndent;
      stripPipelineAnnotations(doc, true);
      foldDocumentComment(doc);
      return serializeChanged(doc, seq);
    })
    .join("---\n");
}

/** kpt's `-o <dir>`: the files that hold resources, written below a new directory. */
export async function writeResourceFiles(
  outDir: string,
  files: ReadonlyMap<string, Uint8Array>,
  paths: readonly string[],
): Promise<void> {
  for (const rel of paths) {
    const bytes = files.get(rel);
    if (!bytes) continue;
    const target = path.join(outDir, rel);
    try {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, bytes);
    } catch (e) {
      const why = blockingParent(target) ?? (e as Error).message;
      throw new Error(`cannot write the output file ${JSON.stringify(target)}: ${why}`);
    }
  }
}
