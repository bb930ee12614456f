/**
 * `ensure-name-substring` (krm-functions-catalog): prepends or appends a substring to
 * `metadata.name` (and to `additionalNameFields`) unless the value already contains it, and rewrites
 * `config.kubernetes.io/depends-on` annotations that point at renamed resources. CRDs, APIServices,
 * Namespaces and Kptfiles are skipped. Fields that name a renamed resource (kustomize's
 * nameReference transformer, see `name-reference.ts`) get the new name.
 */
import type { KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { type FieldSpec, parseFieldSpecs, specSelects, walkFieldSpec } from "./field-specs.js";
import { configMapData, configType, isEmptyConfig } from "./function-config.js";
import { type Renamed, updateNameReferences } from "./name-reference.js";
import {
  getAnnotation,
  getMap,
  getString,
  groupOf,
  scalarString,
  setMapString,
  setString,
  toJs,
} from "./yaml-nodes.js";

const DEPENDS_ON = "config.kubernetes.io/depends-on";
const NAMESPACED = /^([-.\w]*)\/namespaces\/([-.\w]*)\/([-.\w]*)\/([-.\w]*)$/;
const CLUSTER = /^([-.\w]*)\/([-.\w]*)\/([-.\w]*)$/;

interface Config {
  substring: string;
  mode: "prepend" | "append";
  specs: FieldSpec[];
}

function gvkText(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf("/");
  const gv = slash < 0 ? `/${apiVersion}` : apiVersion;
  return `${gv}, Kind=${kind}`;
}

function readConfig(fc: KrmResource | undefined): Config | string {
  if (!fc || isEmptyConfig(fc)) return "substring must not be empty";
  const t = configType(fc);
  let substring = "";
  let mode: Config["mode"] = "prepend";
  let specs: FieldSpec[] = [];
  if (t.apiVersion === "v1" && t.kind === "ConfigMap") {
    const parsed = configMapData(fc);
    if ("error" in parsed) return parsed.error;
    if (parsed.data.size !== 1)
      return `only 1 entry is allowed in the ConfigMap, but got: ${parsed.data.size}`;
    const [[key, value]] = [...parsed.data];
    if (key !== "prepend" && key !== "append")
      return `unknown editMode: ${key}, only prepend and append are allowed`;
    mode = key;
    substring = value;
  } else if (t.apiVersion === "fn.kpt.dev/v1alpha1" && t.kind === "EnsureNameSubstring") {
    const raw = (toJs(fc.contents) ?? {}) as Record<string, unknown>;
    substring = typeof raw.substring === "string" ? raw.substring : "";
    if (raw.editMode === "append") mode = "append";
    if (raw.additionalNameFields !== undefined && raw.fieldSpecs !== undefined) {
      return "`fieldSpecs` has been deprecated, please rename it to `additionalNameFields`";
    }
    specs = parseFieldSpecs(raw.additionalNameFields ?? raw.fieldSpecs);
  } else {
    return `function config must be either /v1, Kind=ConfigMap or fn.kpt.dev/v1alpha1, Kind=EnsureNameSubstring, but we got: ${gvkText(t.apiVersion, t.kind)}`;
  }
  if (substring === "") return "substring must not be empty";
  return { substring, mode, specs: [...specs, { path: "metadata/name" }] };
}

function skipped(doc: KrmResource): boolean {
  const kind = getString(doc, ["kind"]) ?? "";
  const group = groupOf(getString(doc, ["apiVersion"]));
  return (
    kind === "CustomResourceDefinition" ||
    kind === "Namespace" ||
    (kind === "APIService" && group === "apiregistration.k8s.io") ||
    (kind === "Kptfile" && group === "kpt.dev")
  );
}

function edit(value: string, c: Config): string {
  return c.mode === "prepend" ? c.substring + value : value + c.substring;
}

/** The builtin `ensure-name-substring`. */
export const ensureNameSubstring: BuiltinFunction = {
  name: "ensure-name-substring",
  catalogVersion: "v0.2.0",
  run(input) {
    const config = readConfig(input.functionConfig);
    if (typeof config === "string")
      return { items: input.items, results: [{ message: config, severity: "error" }] };
    const known = new Set(
      input.items.map(
        (d) =>
          `${groupOf(getString(d, ["apiVersion"]))}/${getString(d, ["kind"]) ?? ""}/${getString(d, ["metadata", "name"]) ?? ""}`,
      ),
    );
    const renamed: Renamed[] = [];
    for (const doc of input.items) {
      if (skipped(doc)) continue;
      for (const spec of config.specs) {
        if (!specSelects(spec, doc)) continue;
        if (spec.path === "metadata/name") {
          const name = getString(doc, ["metadata", "name"]) ?? "";
          if (name.includes(config.substring)) continue;
          setString(doc, ["metadata", "name"], edit(name, config));
          renamed.push({
            group: groupOf(getString(doc, ["apiVersion"])),
            kind: getString(doc, ["kind"]) ?? "",
            namespace: getString(doc, ["metadata", "namespace"]) ?? "",
            oldName: name,
            newName: edit(name, config),
          });
        } else {
          walkFieldSpec(doc, { ...spec, create: false }, ({ parent, key }) => {
            const value = scalarString(parent.get(key, true));
            if (value === undefined || value.includes(config.substring)) return;
            setMapString(parent, key, edit(value, config));
          });
        }
        const dependsOn = getAnnotation(doc, DEPENDS_ON);
        if (!dependsOn) continue;
        const segs = dependsOn.split("/");
        const [kindIdx, nameIdx] = NAMESPACED.test(dependsOn)
          ? [3, 4]
          : CLUSTER.test(dependsOn)
            ? [1, 2]
            : [-1, -1];
        if (kindIdx < 0 || !known.has(`${segs[0]}/${segs[kindIdx]}/${segs[nameIdx]}`)) continue;
        segs[nameIdx] = edit(segs[nameIdx], config);
        setString(doc, ["metadata", "annotations", DEPENDS_ON], segs.join("/"));
      }
    }
    updateNameReferences(input.items, renamed);
    for (const doc of input.items) dropFileAnnotations(doc);
    return { items: input.items, results: [] };
  },
};

/**
 * The catalog function hands resources through kustomize's resource map, which does not keep kpt's
 * file annotations: every resource comes back without path, index and sequence indentation, so
 * kpt writes each to its default file (`[<namespace>/]<kind>_<name>.yaml`), compact (the catalog's
 * examples and tests show it).
 */
function dropFileAnnotations(doc: KrmResource): void {
  const annotations = getMap(doc, ["metadata", "annotations"]);
  if (!annotations) return;
  for (const key of FILE_ANNOTATIONS) annotations.delete(key);
  if (annotations.items.length === 0) getMap(doc, ["metadata"])?.delete("annotations");
}

const FILE_ANNOTATIONS = [
  "config.kubernetes.io/path",
  "config.kubernetes.io/index",
  "internal.config.kubernetes.io/path",
  "internal.config.kubernetes.io/index",
  "internal.config.kubernetes.io/seqindent",
];
