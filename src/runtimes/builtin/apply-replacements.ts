/**
 * `apply-replacements` (krm-functions-catalog, kustomize `replacements`): copies the value at
 * `source.fieldPath` of the one selected source resource into `targets[].fieldPaths` of every
 * selected (and not rejected) resource, with `options.delimiter/index/create`. A string source keeps
 * its string typing and quoting at the target, as the catalog's wrapper does. A target field that
 * does not exist (without `create`) is skipped, as kustomize's replacement filter did for the
 * apply-replacements releases published packages pin (v0.1.x). No results on success.
 */
import { isMap, isScalar, isSeq, Scalar } from "yaml";
import { compileRe2, quoteMeta } from "../../krm/re2.js";
import type { KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { configType, isEmptyConfig } from "./function-config.js";
import { type FieldRef, isNilOrEmpty, lookupPath, matchPath, smarterPathSplit } from "./kustomize-path.js";
import { matchesSelector } from "./label-selector.js";
import { getMap, getString, groupOf, setScalarText, stringEntries, toJs } from "./yaml-nodes.js";

interface ResSelector {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
}
interface Options {
  delimiter?: string;
  index?: number;
  create?: boolean;
}
interface Target {
  select?: ResSelector & { labelSelector?: string; annotationSelector?: string };
  reject?: Array<ResSelector & { labelSelector?: string; annotationSelector?: string }>;
  fieldPaths?: string[];
  options?: Options;
}
interface Replacement {
  source?: ResSelector & { fieldPath?: string; options?: Options };
  targets?: Target[];
}

class ReplacementError extends Error {}

interface ResId {
  group: string;
  version: string;
  kind: string;
  name: string;
  namespace: string;
}

function idOf(doc: KrmResource): ResId {
  const apiVersion = getString(doc, ["apiVersion"]) ?? "";
  return {
    group: groupOf(apiVersion),
    version: apiVersion.includes("/") ? apiVersion.slice(apiVersion.indexOf("/") + 1) : apiVersion,
    kind: getString(doc, ["kind"]) ?? "",
    name: getString(doc, ["metadata", "name"]) ?? "",
    namespace: getString(doc, ["metadata", "namespace"]) ?? "",
  };
}

const sameNs = (a: string, b: string) => (a === "" ? "default" : a) === (b === "" ? "default" : b);

/** kustomize `ResId.IsSelectedBy` (exact match; empty selector fields match anything). */
function isSelectedBy(id: ResId, sel: ResSelector): boolean {
  return (
    (!sel.name || sel.name === id.name) &&
    (!sel.namespace || sameNs(sel.namespace, id.namespace)) &&
    (!sel.group || sel.group === id.group) &&
    (!sel.version || sel.version === id.version) &&
    (!sel.kind || sel.kind === id.kind)
  );
}

/** A selector field as an anchored Go regexp (RE2: linear time); a field that does not compile matches literally. */
const anchored = (pattern: string) => {
  try {
    return compileRe2(`^(?:${pattern})$`);
  } catch {
    return compileRe2(`^${quoteMeta(pattern)}$`);
  }
};

/** Target selection: like `isSelectedBy`, but selector fields are anchored regular expressions. */
function regexSelects(id: ResId, sel: ResSelector): boolean {
  const fields: Array<keyof ResSelector> = ["group", "version", "kind", "name", "namespace"];
  return fields.every((f) => {
    const want = sel[f];
    if (!want) return true;
    if (f === "namespace" && sameNs(want, id.namespace)) return true;
    return anchored(want).test(id[f]);
  });
}

function selectorText(sel: ResSelector): string {
  const gvk = [sel.group || "~G", sel.version || "~V", sel.kind || "~K"].join("_");
  return `${gvk}|${sel.namespace || "~X"}|${sel.name || "~N"}`;
}

function sourceValue(items: KrmResource[], r: Replacement): unknown {
  const sel = r.source ?? {};
  const matches = items.filter((d) => isSelectedBy(idOf(d), sel));
  if (matches.length > 1) throw new ReplacementError(`multiple matches for selector ${selectorText(sel)}`);
  if (matches.length === 0) throw new ReplacementError(`nothing selected by ${selectorText(sel)}`);
  const fieldPath = sel.fieldPath || "metadata.name";
  const node = lookupPath(matches[0].contents, smarterPathSplit(fieldPath));
  if (isNilOrEmpty(node)) {
    throw new ReplacementError(
      `fieldPath \`${fieldPath}\` is missing for replacement source ${selectorText(sel)}`,
    );
  }
  const opts = sel.options;
  if (!opts?.delimiter) return node;
  if (!isScalar(node)) throw new ReplacementError("delimiter option can only be used with scalar nodes");
  const parts = String(node.value ?? "").split(opts.delimiter);
  const index = opts.index ?? 0;
  if (index < 0 || index >= parts.length) {
    throw new ReplacementError(
      `options.index ${index} is out of bounds for value ${String(node.value ?? "")}`,
    );
  }
  return new Scalar(parts[index]);
}

function isStringSource(node: unknown): node is Scalar {
  return isScalar(node) && typeof node.value === "string";
}

function setField(field: FieldRef, value: unknown, options: Options | undefined): void {
  let v = value;
  if (options?.delimiter) {
    if (!isScalar(field.node))
      throw new ReplacementError("delimiter option can only be used with scalar nodes");
    const parts = String(field.node.value ?? "").split(options.delimiter);
    const text = isScalar(v) ? String(v.value ?? "") : "";
    const index = options.index ?? 0;
    if (index < 0) parts.unshift(text);
    else if (index >= parts.length) parts.push(text);
    else parts[index] = text;
    v = new Scalar(parts.join(options.delimiter));
  }
  if (isScalar(field.node) && isScalar(v)) {
    const target = field.node;
    const text = v.value === null || v.value === undefined ? "" : String(v.value);
    if (isStringSource(value)) {
      target.value = text;
      target.type = value.type;
    } else if (typeof target.value === "string") {
      target.value = text;
    } else {
      setScalarText(target, text);
    }
    return;
  }
  const copy = v && typeof v === "object" && "clone" in v ? (v as { clone(): unknown }).clone() : v;
  field.replace(copy);
}

type MetaSelector = { labelSelector?: string; annotationSelector?: string };

const hasMetaSelector = (s: MetaSelector) => Boolean(s.labelSelector || s.annotationSelector);
const isEmptySelector = (s: ResSelector) => !s.group && !s.version && !s.kind && !s.name && !s.namespace;

/** kustomize `labelSelector` / `annotationSelector` of a target or reject entry. */
function metaSelects(doc: KrmResource, sel: MetaSelector): boolean {
  const labels = new Map(stringEntries(getMap(doc, ["metadata", "labels"])));
  const annotations = new Map(stringEntries(getMap(doc, ["metadata", "annotations"])));
  return matchesSelector(sel.labelSelector, labels) && matchesSelector(sel.annotationSelector, annotations);
}

function applyTarget(items: KrmResource[], value: unknown, target: Target): void {
  if (!target.select) throw new ReplacementError("target must specify resources to select");
  const fieldPaths = target.fieldPaths?.length ? target.fieldPaths : ["metadata.name"];
  for (const doc of items) {
    const id = idOf(doc);
    if (!regexSelects(id, target.select) || !metaSelects(doc, target.select)) continue;
    const rejected = (target.reject ?? []).some((r) =>
      hasMetaSelector(r) ? metaSelects(doc, r) : !isEmptySelector(r) && regexSelects(id, r),
    );
    if (rejected) continue;
    for (const fp of fieldPaths) {
      const create = !target.options?.create ? false : isMap(value) ? "map" : isSeq(value) ? "seq" : "scalar";
      const fields = matchPath(doc.contents, smarterPathSplit(fp), create);
      for (const field of fields) setField(field, value, target.options);
    }
  }
}

function readConfig(fc: KrmResource | undefined): Replacement[] | string {
  if (isEmptyConfig(fc) || !fc) return "FunctionConfig is missing. Expect `ApplyReplacements`";
  const t = configType(fc);
  if (t.kind !== "ApplyReplacements" || t.apiVersion !== "fn.kpt.dev/v1alpha1") {
    return `received functionConfig of kind ${t.kind} and apiVersion ${t.apiVersion}, only functionConfig of kind ApplyReplacements and apiVersion fn.kpt.dev/v1alpha1 is supported`;
  }
  const raw = (toJs(fc.contents) ?? {}) as { replacements?: unknown };
  if (raw.replacements !== undefined && raw.replacements !== null && !Array.isArray(raw.replacements)) {
    return "unable to convert functionConfig to replacements:\nreplacements must be a list";
  }
  return (raw.replacements ?? []) as Replacement[];
}

/** The builtin `apply-replacements`. Any error is one error result and exit code 1. */
export const applyReplacements: BuiltinFunction = {
  name: "apply-replacements",
  catalogVersion: "v0.1.2",
  run(input) {
    const config = readConfig(input.functionConfig);
    const fail = (message: string) => ({
      items: input.items,
      results: [{ message, severity: "error" as const }],
    });
    if (typeof config === "string") return fail(config);
    try {
      for (const r of config) {
        const value = sourceValue(input.items, r);
        for (const target of r.targets ?? []) applyTarget(input.items, value, target);
      }
    } catch (err) {
      if (err instanceof ReplacementError) return fail(err.message);
      throw err;
    }
    return { items: input.items, results: [] };
  },
};
