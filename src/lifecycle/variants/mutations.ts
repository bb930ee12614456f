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
import { type Document, isMap, isScalar, isSeq, parseAllDocuments, Scalar, YAMLMap, YAMLSeq } from "yaml";
import { parseYamlFile, serializeChanged } from "../../krm/yaml-io.js";
import { type FileTree, isYamlFile, KPTFILE } from "../../pkg/files.js";
import { seqIndentOf } from "../../pkg/resource-io.js";
import { OWNER_ANNOTATION } from "../upstream-source.js";
import type { InjectionSelector, ValidVariant, VariantFunction } from "./package-variant.js";

/** Porch's annotation marking an injection point (`required` or `optional`). */
export const CONFIG_INJECTION = "kpt.dev/config-injection";
/** Porch's annotation naming the resource injected into an injection point. */
export const INJECTED_RESOURCE = "kpt.dev/injected-resource";
/** The package context file and its ConfigMap name (kpt's `gen-pkg-context`). */
export const PACKAGE_CONTEXT_FILE = "package-context.yaml";
const PACKAGE_CONTEXT_NAME = "kptfile.kpt.dev";

/** A resource that can be injected (plain data, as read from the injectors directory). */
export interface Injectable {
  apiVersion: string;
  kind: string;
  name: string;
  data: Record<string, unknown>;
}

/** The outcome of one injection point (a Kptfile condition). */
export interface InjectionResult {
  file: string;
  conditionType: string;
  required: boolean;
  status: "True" | "False";
  reason: string;
  message: string;
}

/** The mutated package. */
export interface MutationResult {
  files: FileTree;
  changed: boolean;
  injections: InjectionResult[];
}

/** A mutation that cannot be applied (Porch's errors), naming the file. */
export class MutationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MutationError";
  }
}

function parseOne(file: string, content: Buffer): { doc: Document; seq: "compact" | "wide" } {
  const parsed = parseYamlFile(file, content.toString("utf8"));
  const first = parsed.docs[0];
  if (!first) throw new MutationError(`${file}: no resource`);
  return { doc: first.doc, seq: first.source ? seqIndentOf(first.source) : parsed.seqIndent };
}

function write(doc: Document, seq: "compact" | "wide"): Buffer {
  return Buffer.from(serializeChanged(doc, seq), "utf8");
}

function str(value: string): Scalar {
  const s = new Scalar(value);
  return s;
}

function mapAt(parent: YAMLMap, key: string): YAMLMap {
  const existing = parent.get(key, true);
  if (isMap(existing)) return existing;
  const created = new YAMLMap();
  parent.set(key, created);
  return created;
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

function groupVersion(apiVersion: string): [string, string] {
  const i = apiVersion.indexOf("/");
  return i < 0 ? ["", apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
}

interface InjectionPoint {
  file: string;
  docs: Document[];
  doc: Document;
  apiVersion: string;
  kind: string;
  name: string;
  result: InjectionResult;
  errors: string[];
  injected?: string;
}

function findInjectionPoints(files: FileTree): InjectionPoint[] {
  const points: InjectionPoint[] = [];
  for (const file of [...files.keys()].sort()) {
    if (!(isYamlFile(file) || file.endsWith(".json") || path.basename(file) === KPTFILE)) continue;
    const docs = parseAllDocuments(files.get(file)!.toString("utf8"));
    if (!Array.isArray(docs)) continue;
    for (const doc of docs) {
      const value = doc.getIn(["metadata", "annotations", CONFIG_INJECTION]);
      if (value === undefined) continue;
      const kind = String(doc.get("kind") ?? "");
      const name = String(doc.getIn(["metadata", "name"]) ?? "");
      const point: InjectionPoint = {
        file,
        docs,
        doc,
        apiVersion: String(doc.get("apiVersion") ?? ""),
        kind,
        name,
        errors: [],
        result: {
          file,
          conditionType: ["config", "injection", kind, name].join("."),
          required: value === "required",
          status: "False",
          reason: "NoResourceSelected",
          message: "no resource matched any injection selector for this injection point",
        },
      };
      if (value !== "required" && value !== "optional") {
        throw new MutationError(
          `errors in injection points: ${file}: ${kind}/${name} has invalid ${JSON.stringify(CONFIG_INJECTION)} annotation value of ${JSON.stringify(String(value))}`,
        );
      }
      points.push(point);
    }
  }
  const seen = new Map<string, string>();
  for (const p of points) {
    const other = seen.get(p.result.conditionType);
    if (other !== undefined) {
      throw new MutationError(
        `errors in injection points: duplicate injection conditionType ${JSON.stringify(p.result.conditionType)} (${other} and ${p.file})`,
      );
    }
    seen.set(p.result.conditionType, p.file);
  }
  return points;
}

function matches(injector: InjectionSelector, point: InjectionPoint): boolean {
  const [g, v] = groupVersion(point.apiVersion);
  if (injector.group !== undefined && injector.group !== g) return false;
  if (injector.version !== undefined && injector.version !== v) return false;
  if (injector.kind !== undefined && injector.kind !== point.kind) return false;
  return true;
}

function inject(
  point: InjectionPoint,
  injectors: readonly InjectionSelector[],
  injectables: readonly Injectable[],
): void {
  if (injectors.length === 0) {
    point.errors.push("no injectors defined");
    return;
  }
  const candidates = injectables.filter((r) => r.apiVersion === point.apiVersion && r.kind === point.kind);
  if (candidates.length === 0) {
    point.errors.push(`no in-cluster resources of type ${point.apiVersion}.${point.kind}`);
    return;
  }
  for (const injector of injectors) {
    if (!matches(injector, point)) continue;
    const source = candidates.find((r) => r.name === injector.name);
    if (!source) continue;
    const [g] = groupVersion(source.apiVersion);
    const field = g === "" && source.kind === "ConfigMap" ? "data" : "spec";
    if (!(field in source.data)) {
      point.errors.push(
        `field ${JSON.stringify(field)} not found in resource ${JSON.stringify(source.name)}`,
      );
      return;
    }
    point.doc.set(field, point.doc.createNode(source.data[field]));
    const ann = point.doc.getIn(["metadata", "annotations"], true);
    if (isMap(ann)) ann.set(str(INJECTED_RESOURCE), str(source.name));
    point.injected = source.name;
    return;
  }
}

/** 3. Config injection and its conditions / readiness gates in the Kptfile. */
function ensureInjection(
  files: FileTree,
  kptfile: Document,
  pv: ValidVariant,
  injectables: readonly Injectable[],
): InjectionResult[] {
  const points = findInjectionPoints(files).filter((p) => p.file !== KPTFILE);
  for (const p of points) {
    inject(p, pv.spec.injectors ?? [], injectables);
    if (p.injected) {
      p.result.status = "True";
      p.result.reason = "ConfigInjected";
      p.result.message = `injected resource ${JSON.stringify(p.injected)} from cluster`;
      const seq = seqIndentOf(files.get(p.file)!.toString("utf8"));
      files.set(p.file, Buffer.from(p.docs.map((d) => serializeChanged(d, seq)).join("---\n"), "utf8"));
    } else if (p.errors.length > 0) {
      p.result.message = p.errors.join(", ");
    }
  }
  if (points.length === 0) return [];
  const root = kptfile.contents as YAMLMap;
  const required = points.filter((p) => p.result.required).map((p) => p.result.conditionType);
  const info = mapAt(root, "info");
  const gates = new Set<string>();
  const existingGates = info.get("readinessGates", true);
  if (isSeq(existingGates))
    for (const g of existingGates.items) if (isMap(g)) gates.add(String(g.get("conditionType")));
  for (const r of required) gates.add(r);
  if (gates.size > 0) {
    info.set(
      "readinessGates",
      kptfile.createNode([...gates].sort().map((conditionType) => ({ conditionType }))),
    );
  }
  const status = mapAt(root, "status");
  const existing = status.get("conditions", true);
  const conditions = new Map<string, Record<string, string>>();
  if (isSeq(existing)) {
    for (const c of existing.items) {
      if (!isMap(c)) continue;
      const plain = c.toJSON() as Record<string, string>;
      conditions.set(String(plain.type), plain);
    }
  }
  for (const p of points) {
    conditions.set(p.result.conditionType, {
      type: p.result.conditionType,
      status: p.result.status,
      reason: p.result.reason,
      message: p.result.message,
    });
  }
  status.set(
    "conditions",
    kptfile.createNode(
      [...conditions.keys()].sort().map((type) => {
        const c = conditions.get(type)!;
        const out: Record<string, string> = { type: c.type, status: c.status };
        if (c.reason) out.reason = c.reason;
        if (c.message) out.message = c.message;
        return out;
      }),
    ),
  );
  return points.map((p) => p.result);
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
