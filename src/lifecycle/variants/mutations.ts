/**
 * The mutations a PackageVariant applies to its downstream package, in Porch's order
 * (`calculateDraftResources`): 1. the package context (`package-context.yaml`, ConfigMap
 * `kptfile.kpt.dev`: keys of `packageContext.data` set, `removeKeys` removed); 2. the variant's
 * pipeline functions prepended to the Kptfile's, named `PackageVariant.<variant>.<function>.<index>`
 * (the variant's earlier functions replaced); 3. config injection (resources annotated
 * `kpt.dev/config-injection: required|optional` receive the `data` of a ConfigMap or the `spec` of
 * any other resource chosen by `injectors`, recorded as Kptfile conditions
 * `config.injection.<Kind>.<name>`, required ones as readiness gates). porchlight also records the
 * owning variant (annotation {@link OWNER_ANNOTATION}) and the variant's labels and annotations in the
 * Kptfile's metadata. Applying the mutations twice changes nothing the second time.
 */
import path from "node:path/posix";
import { type Document, isMap, isScalar, isSeq, YAMLMap, YAMLSeq } from "yaml";
import { parseYamlFile, serializeChanged } from "../../krm/yaml-io.js";
import { type FileTree, KPTFILE } from "../../pkg/files.js";
import { seqIndentOf } from "../../pkg/resource-io.js";
import { OWNER_ANNOTATION } from "../upstream-source.js";
import { ensureInjection } from "./mutations/injection.js";
import {
  type Injectable,
  MutationError,
  type MutationResult,
  mapAt,
  PACKAGE_CONTEXT_FILE,
  PACKAGE_CONTEXT_NAME,
  str,
} from "./mutations/model.js";
import type { ValidVariant, VariantFunction } from "./package-variant.js";

export { type Injectable, MutationError, type MutationResult } from "./mutations/model.js";

function parseOne(file: string, content: Buffer): { doc: Document; seq: "compact" | "wide" } {
  const parsed = parseYamlFile(file, content.toString("utf8"));
  const first = parsed.docs[0];
  if (!first) throw new MutationError(`${file}: no resource`);
  return { doc: first.doc, seq: first.source ? seqIndentOf(first.source) : parsed.seqIndent };
}

function write(doc: Document, seq: "compact" | "wide"): Buffer {
  return Buffer.from(serializeChanged(doc, seq), "utf8");
}

/** 1. The package context: `package-context.yaml` is created (as kpt's gen-pkg-context) when missing. */
function ensurePackageContext(files: FileTree, pv: ValidVariant): void {
  const ctx = pv.spec.packageContext;
  if (!ctx || (Object.keys(ctx.data ?? {}).length === 0 && (ctx.removeKeys ?? []).length === 0)) return;
  const name = path.basename(pv.downstream.package);
  const existing = files.get(PACKAGE_CONTEXT_FILE);
  const text =
    existing?.toString("utf8") ??
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${PACKAGE_CONTEXT_NAME}\n  annotations:\n    config.kubernetes.io/local-config: "true"\ndata:\n  name: ${name}\n`;
  const { doc, seq } = parseOne(PACKAGE_CONTEXT_FILE, Buffer.from(text));
  const root = doc.contents;
  if (!isMap(root) || root.get("kind") !== "ConfigMap") {
    throw new MutationError(`${JSON.stringify(PACKAGE_CONTEXT_FILE)} does not contain kind "ConfigMap"`);
  }
  if (doc.getIn(["metadata", "name"]) !== PACKAGE_CONTEXT_NAME) {
    throw new MutationError(
      `${JSON.stringify(PACKAGE_CONTEXT_FILE)} does not contain resource named "${PACKAGE_CONTEXT_NAME}"`,
    );
  }
  const dataNode = root.get("data", true);
  if (!isMap(dataNode))
    throw new MutationError(`${PACKAGE_CONTEXT_FILE}: PackageContext no data field found`);
  const data: Record<string, string> = {};
  for (const pair of dataNode.items) {
    if (isScalar(pair.key))
      data[String(pair.key.value)] = isScalar(pair.value) ? String(pair.value.value ?? "") : "";
  }
  for (const [k, v] of Object.entries(ctx.data ?? {})) data[k] = v;
  for (const k of ctx.removeKeys ?? []) delete data[k];
  const next = new YAMLMap();
  for (const k of Object.keys(data).sort()) next.set(str(k), str(data[k]));
  root.set("data", next);
  files.set(PACKAGE_CONTEXT_FILE, write(doc, seq));
}

/** Porch's `isPackageVariantFunc`: `PackageVariant.<variant>.<name>.<int>`. */
function isVariantFunction(name: unknown, variant: string): boolean {
  if (typeof name !== "string") return false;
  const parts = name.split(".");
  return (
    parts.length === 4 && parts[0] === "PackageVariant" && parts[1] === variant && /^-?\d+$/.test(parts[3])
  );
}

function functionNode(doc: Document, fn: VariantFunction, name: string): YAMLMap {
  const ordered: Record<string, unknown> = {};
  if (fn.image) ordered.image = fn.image;
  if (fn.exec) ordered.exec = fn.exec;
  if (fn.configPath) ordered.configPath = fn.configPath;
  if (fn.configMap)
    ordered.configMap = Object.fromEntries(
      Object.keys(fn.configMap)
        .sort()
        .map((k) => [k, fn.configMap![k]]),
    );
  ordered.name = name;
  if (fn.selectors?.length) ordered.selectors = fn.selectors;
  if (fn.exclude?.length) ordered.exclude = fn.exclude;
  return doc.createNode(ordered) as YAMLMap;
}

/** 2. The variant's functions first in the pipeline; its earlier ones go. */
function ensureFunctions(kptfile: Document, pv: ValidVariant): void {
  const root = kptfile.contents as YAMLMap;
  const pipeline = mapAt(root, "pipeline");
  for (const field of ["mutators", "validators"] as const) {
    const existing = pipeline.get(field, true);
    const kept = isSeq(existing)
      ? existing.items.filter((item) => !(isMap(item) && isVariantFunction(item.get("name"), pv.name)))
      : [];
    const added = (pv.spec.pipeline?.[field] ?? []).map((fn, i) =>
      functionNode(kptfile, fn, `PackageVariant.${pv.name}.${fn.name ?? ""}.${i}`),
    );
    if (added.length + kept.length === 0) {
      pipeline.delete(field);
      continue;
    }
    const seq = isSeq(existing) ? existing : new YAMLSeq();
    seq.items = [...added, ...kept];
    pipeline.set(field, seq);
  }
  if (pipeline.items.length === 0) root.delete("pipeline");
}

/** porchlight: the owner and the variant's labels / annotations on the Kptfile's metadata. */
function ensureMetadata(kptfile: Document, pv: ValidVariant): void {
  const meta = mapAt(kptfile.contents as YAMLMap, "metadata");
  const set = (field: string, values: Record<string, string>) => {
    if (Object.keys(values).length === 0) return;
    const map = mapAt(meta, field);
    for (const k of Object.keys(values).sort()) map.set(str(k), str(values[k]));
  };
  set("labels", pv.spec.labels ?? {});
  set("annotations", { ...pv.spec.annotations, [OWNER_ANNOTATION]: pv.name });
}

/**
 * Applies a variant's mutations to its downstream package (the files of the package, Kptfile at
 * `Kptfile`). Throws {@link MutationError} (package context or injection points that cannot be
 * used) naming the file.
 */
export function applyVariant(options: {
  files: FileTree;
  variant: ValidVariant;
  injectables?: readonly Injectable[];
}): MutationResult {
  const files: FileTree = new Map(options.files);
  const kfText = files.get(KPTFILE);
  if (!kfText)
    throw new MutationError(`no Kptfile in package ${JSON.stringify(options.variant.downstream.package)}`);
  ensurePackageContext(files, options.variant);
  const { doc: kptfile, seq: derived } = parseOne(KPTFILE, kfText);
  // kpt writes Kptfiles with wide sequences; a Kptfile without any sequence says nothing.
  const seq = /^\s*- /m.test(kfText.toString("utf8")) ? derived : "wide";
  ensureFunctions(kptfile, options.variant);
  ensureMetadata(kptfile, options.variant);
  const injections = ensureInjection(files, kptfile, options.variant, options.injectables ?? []);
  files.set(KPTFILE, write(kptfile, seq));
  let changed = files.size !== options.files.size;
  for (const [file, content] of files) if (!options.files.get(file)?.equals(content)) changed = true;
  return { files, changed, injections };
}
