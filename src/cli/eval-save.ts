/**
 * `fn eval --save --type mutator|validator`: kpt's `SaveFnToKptfile`. After a successful eval the
 * evaluated function is added to the package's Kptfile pipeline (`pipeline.mutators` or
 * `pipeline.validators`), or replaces the steps of the same image (as resolved) or exec command.
 * The Kptfile is re-serialized as kpt writes it (kptfileutil: struct field order, wide sequences)
 * with the original's comments and field order copied back (kyaml's CopyComments and SyncOrder).
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseDocument } from "yaml";
import type { KptFunction, Selector } from "../kptfile/schema.js";
import { copyComments } from "../krm/comments.js";
import { syncFieldOrder } from "../krm/field-order.js";
import { goStringifyOptions } from "../krm/yaml-io.js";
import { marshalKptfile, parseKptfile } from "../pkg/kptfile.js";

/** What `fn eval` evaluated, as kpt's `NewFunction` records it. */
export interface SavedFunctionSpec {
  /** `mutator` or `validator` (checked before the eval runs). */
  fnType: "mutator" | "validator";
  /** The image as resolved (prefixed short names), or undefined for an exec function. */
  image?: string;
  /** `--tag`, recorded next to the image. */
  tag?: string;
  exec?: string;
  /** `--fn-config` relative to the package (slash-separated), when given. */
  configPath?: string;
  /** The `-- k=v` arguments (a first argument without `=` is a kind and is not recorded). */
  dataItems: readonly string[];
  selector?: Selector;
  exclusion?: Selector;
}

/** kpt's `NewFunction`: the pipeline step for the evaluated function. */
export function newFunction(spec: SavedFunctionSpec): KptFunction {
  const fn: KptFunction = spec.image ? { image: spec.image } : { exec: spec.exec };
  if (spec.image && spec.tag) fn.tag = spec.tag;
  if (spec.selector && Object.keys(spec.selector).length > 0) fn.selectors = [spec.selector];
  if (spec.exclusion && Object.keys(spec.exclusion).length > 0) fn.exclude = [spec.exclusion];
  if (spec.configPath !== undefined) fn.configPath = spec.configPath;
  else {
    const data: Record<string, string> = {};
    for (const item of spec.dataItems) {
      const eq = item.indexOf("=");
      // Without `=`: the kind (first argument); other such arguments were refused before the eval.
      if (eq >= 0) data[item.slice(0, eq)] = item.slice(eq + 1);
    }
    if (Object.keys(data).length > 0) fn.configMap = data;
  }
  return fn;
}

/**
 * kpt's `updateFnList`: every step with the same image (as written, compared with the resolved
 * image) or the same exec command is replaced by `fn`; otherwise `fn` is appended.
 * @returns the new list and kpt's message (`Added "<fn>" as mutator in the Kptfile.`).
 */
export function updateFnList(
  list: readonly KptFunction[],
  fn: KptFunction,
  fnType: string,
): { list: KptFunction[]; message: string } {
  const name = fn.image ?? fn.exec ?? "";
  let found = false;
  const next = list.map((m) => {
    const same =
      (m.image !== undefined && m.image !== "" && m.image === fn.image) ||
      (m.exec !== undefined && m.exec !== "" && m.exec === fn.exec);
    if (same) found = true;
    return same ? fn : m;
  });
  if (!found) next.push(fn);
  const verb = found ? "Updated" : "Added";
  return { list: next, message: `${verb} ${JSON.stringify(name)} as ${fnType} in the Kptfile.` };
}

/**
 * The Kptfile text with `fn` saved into its pipeline: kpt's struct serialization, then the original's
 * comments and field order.
 * @throws KptfileError when the Kptfile cannot be read.
 */
export function savedKptfileText(
  original: string,
  spec: SavedFunctionSpec,
): { text: string; message: string } {
  const data = parseKptfile("Kptfile", original);
  const fn = newFunction(spec);
  const pipeline = { ...(data.kptfile.pipeline ?? {}) };
  const key = spec.fnType === "mutator" ? "mutators" : "validators";
  const { list, message } = updateFnList(pipeline[key] ?? [], fn, spec.fnType);
  pipeline[key] = list;
  const marshalled = marshalKptfile({ ...data, kptfile: { ...data.kptfile, pipeline } });
  const from = parseDocument(original);
  const to = parseDocument(marshalled);
  copyComments(from, to);
  syncFieldOrder(from, to);
  return { text: to.toString(goStringifyOptions("wide")), message };
}

/**
 * Saves the evaluated function into `<pkgDir>/Kptfile` and returns what kpt prints: the
 * Added/Updated line, or `function not added: Kptfile not exists` when there is no readable Kptfile
 * (also for a ResourceList read from stdin: `pkgDir` undefined).
 */
export async function saveFunctionToKptfile(
  pkgDir: string | undefined,
  spec: SavedFunctionSpec,
): Promise<string> {
  if (pkgDir === undefined) return "function not added: Kptfile not exists";
  const file = path.join(pkgDir, "Kptfile");
  const original = await readFile(file, "utf8").catch(() => undefined);
  if (original === undefined) return "function not added: Kptfile not exists";
  let saved: { text: string; message: string };
  try {
    saved = savedKptfileText(original, spec);
  } catch {
    return "function not added: Kptfile not exists";
  }
  try {
    await writeFile(file, saved.text);
  } catch (err) {
    return `function is not added to Kptfile: ${(err as Error).message}`;
  }
  return saved.message;
}
