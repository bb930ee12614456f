/**
 * `set-annotations` (krm-functions-catalog, kustomize's commonAnnotations): adds or overwrites
 * annotations in `metadata.annotations` of every resource (local config and Kptfiles included) and
 * in the pod / job templates of workloads, plus `additionalAnnotationFields`. One result per field
 * set: `set annotations: {"k":"v"}` with the field path and file.
 */
import { isMap, YAMLMap } from "yaml";
import type { FunctionResult, KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { type FieldSpec, parseFieldSpecs, specSelects, walkFieldSpec } from "./field-specs.js";
import { configMapData, configType } from "./function-config.js";
import { fileOf, isNullish, setMapString, toJs } from "./yaml-nodes.js";

/** kustomize's default commonAnnotations field specs. */
const DEFAULT_SPECS: FieldSpec[] = [
  { path: "metadata/annotations", create: true },
  { path: "spec/template/metadata/annotations", create: true, version: "v1", kind: "ReplicationController" },
  { path: "spec/template/metadata/annotations", create: true, kind: "Deployment" },
  { path: "spec/template/metadata/annotations", create: true, kind: "ReplicaSet" },
  { path: "spec/template/metadata/annotations", create: true, kind: "DaemonSet" },
  { path: "spec/template/metadata/annotations", create: true, kind: "StatefulSet" },
  { path: "spec/template/metadata/annotations", create: true, group: "batch", kind: "Job" },
  { path: "spec/jobTemplate/metadata/annotations", create: true, group: "batch", kind: "CronJob" },
  {
    path: "spec/jobTemplate/spec/template/metadata/annotations",
    create: true,
    group: "batch",
    kind: "CronJob",
  },
];

interface Config {
  annotations: Map<string, string>;
  specs: FieldSpec[];
}

function readConfig(fc: KrmResource | undefined): Config | string {
  const t = configType(fc);
  let annotations = new Map<string, string>();
  let specs: FieldSpec[] = [];
  if (fc && t.apiVersion === "v1" && t.kind === "ConfigMap") {
    const parsed = configMapData(fc);
    if ("error" in parsed) return parsed.error;
    annotations = parsed.data;
  } else if (
    fc &&
    t.apiVersion === "fn.kpt.dev/v1alpha1" &&
    (t.kind === "SetAnnotations" || t.kind === "SetAnnotationConfig")
  ) {
    const raw = (toJs(fc.contents) ?? {}) as Record<string, unknown>;
    if (raw.annotations && typeof raw.annotations === "object" && !Array.isArray(raw.annotations)) {
      for (const [k, v] of Object.entries(raw.annotations as Record<string, unknown>)) {
        if (v !== null && v !== undefined) annotations.set(k, String(v));
      }
    } else if (raw.annotations !== undefined && raw.annotations !== null) {
      return "failed to unmarshal config: `annotations` must be a map of strings";
    }
    if (raw.additionalAnnotationFields !== undefined && raw.fieldSpecs !== undefined) {
      return "`fieldSpecs` has been deprecated, please rename it to `additionalAnnotationFields`";
    }
    specs = parseFieldSpecs(raw.additionalAnnotationFields ?? raw.fieldSpecs);
  } else {
    return "`functionConfig` must be a `ConfigMap` or `SetAnnotations`";
  }
  if (annotations.size === 0) return "input annotation list cannot be empty";
  return { annotations, specs: [...specs, ...DEFAULT_SPECS] };
}

interface Entry {
  filePath: string;
  fileIndex: number;
  fieldPath: string;
  values: Map<string, string>;
}

function byResultOrder(a: Entry, b: Entry): number {
  if (a.filePath !== b.filePath) return a.filePath < b.filePath ? -1 : 1;
  if (a.fileIndex !== b.fileIndex) return a.fileIndex - b.fileIndex;
  return a.fieldPath < b.fieldPath ? -1 : a.fieldPath > b.fieldPath ? 1 : 0;
}

function annotationJson(values: Map<string, string>): string {
  const sorted = [...values.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(sorted));
}

/** The builtin `set-annotations`. */
export const setAnnotations: BuiltinFunction = {
  name: "set-annotations",
  catalogVersion: "v0.1.4",
  run(input) {
    const config = readConfig(input.functionConfig);
    if (typeof config === "string") {
      const message = `failed to configure function: ${config}`;
      return { items: input.items, results: [{ message, severity: "error" }], stderr: `[error]: ${message}` };
    }
    const keys = [...config.annotations.keys()].sort();
    const entries = new Map<string, Entry>();
    for (const doc of input.items) {
      const file = fileOf(doc);
      const filePath = file?.path ?? "";
      const fileIndex = file?.index ?? 0;
      for (const spec of config.specs) {
        if (!specSelects(spec, doc)) continue;
        walkFieldSpec(doc, spec, ({ parent, key, fieldPath }) => {
          const existing: unknown = parent.get(key, true);
          let map: YAMLMap;
          if (isMap(existing)) {
            map = existing;
          } else if (isNullish(existing) && spec.create) {
            map = new YAMLMap();
            parent.set(key, map);
          } else {
            return;
          }
          const id = `${filePath}\u0000${fileIndex}\u0000${fieldPath}`;
          const entry = entries.get(id) ?? { filePath, fileIndex, fieldPath, values: new Map() };
          entries.set(id, entry);
          for (const k of keys) {
            const v = config.annotations.get(k) ?? "";
            setMapString(map, k, v);
            entry.values.set(k, v);
          }
        });
      }
    }
    const results: FunctionResult[] = [...entries.values()].sort(byResultOrder).map((e) => ({
      message: `set annotations: ${annotationJson(e.values)}`,
      field: { path: e.fieldPath },
      file: e.fileIndex === 0 ? { path: e.filePath } : { path: e.filePath, index: e.fileIndex },
    }));
    if (results.length === 0) results.push({ message: "no annotations applied" });
    return { items: input.items, results };
  },
};
