/**
 * `upsert-resource` (krm-functions-catalog): the functionConfig is the resource (or a `List` of
 * resources) to upsert. A resource with the same group, kind, name and namespace (and, when the
 * config has `config.kubernetes.io/target-path`, the same file) is replaced, keeping its path/index
 * annotations; otherwise the resource is added (to the target path, when given).
 */
import { Document, isMap, YAMLMap } from "yaml";
import type { KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { isEmptyConfig } from "./function-config.js";
import { getAnnotation, getMap, getSeq, getString, groupOf, stringEntries } from "./yaml-nodes.js";

const TARGET_PATH = "config.kubernetes.io/target-path";
const PATH_KEYS = [
  "config.kubernetes.io/path",
  "config.kubernetes.io/index",
  "internal.config.kubernetes.io/path",
  "internal.config.kubernetes.io/index",
];
const FN_KEYS = ["config.kubernetes.io/function", "config.k8s.io/function"];

function sameResource(input: KrmResource, target: KrmResource): boolean {
  const same = (path: string[]) => (getString(input, path) ?? "") === (getString(target, path) ?? "");
  const targetPath = getAnnotation(input, TARGET_PATH) ?? "";
  const targetFile =
    getAnnotation(target, "internal.config.kubernetes.io/path") ??
    getAnnotation(target, "config.kubernetes.io/path");
  return (
    groupOf(getString(input, ["apiVersion"])) === groupOf(getString(target, ["apiVersion"])) &&
    same(["kind"]) &&
    same(["metadata", "name"]) &&
    same(["metadata", "namespace"]) &&
    (targetPath === "" || targetPath === targetFile)
  );
}

/** Replaces the annotations map of `doc` by `entries` sorted by key (kyaml `SetAnnotations`). */
function setAnnotations(doc: KrmResource, entries: Map<string, string>): void {
  const meta = getMap(doc, ["metadata"]);
  if (!meta) return;
  if (entries.size === 0) {
    meta.delete("annotations");
    return;
  }
  const map = new YAMLMap();
  for (const key of [...entries.keys()].sort()) map.set(key, entries.get(key));
  meta.set("annotations", map);
}

function resourcesOf(config: KrmResource): KrmResource[] {
  if (getString(config, ["kind"]) !== "List") return [config];
  return (getSeq(config, ["items"])?.items ?? []).filter(isMap).map((node) => {
    const d = new Document();
    d.contents = node;
    return d;
  });
}

/** The builtin `upsert-resource`. */
export const upsertResource: BuiltinFunction = {
  name: "upsert-resource",
  catalogVersion: "v0.2.0",
  run(input) {
    const config = input.functionConfig;
    if (!config || isEmptyConfig(config) || !isMap(config.contents)) {
      return {
        items: input.items,
        results: [{ message: "failed to upsert resource: missing Resource metadata", severity: "error" }],
      };
    }
    const items = [...input.items];
    for (const resource of resourcesOf(config)) {
      const own = new Map(stringEntries(getMap(resource, ["metadata", "annotations"])));
      for (const key of FN_KEYS) own.delete(key);
      let found = false;
      items.forEach((item, i) => {
        if (FN_KEYS.some((k) => getAnnotation(item, k))) return;
        if (!sameResource(resource, item)) return;
        const copy = resource.clone();
        const merged = new Map(own);
        for (const key of PATH_KEYS) {
          const v = getAnnotation(item, key);
          if (v !== undefined) merged.set(key, v);
        }
        merged.delete(TARGET_PATH);
        setAnnotations(copy, merged);
        items[i] = copy;
        found = true;
      });
      if (!found) {
        const copy = resource.clone();
        const anns = new Map(own);
        for (const key of PATH_KEYS) anns.delete(key);
        const target = own.get(TARGET_PATH);
        if (target) {
          anns.set("config.kubernetes.io/path", target);
          anns.set("internal.config.kubernetes.io/path", target);
        }
        anns.delete(TARGET_PATH);
        if (getMap(copy, ["metadata", "annotations"]) || anns.size > 0) setAnnotations(copy, anns);
        items.push(copy);
      }
    }
    return { items, results: [] };
  },
};
