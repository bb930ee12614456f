/**
 * `generate-folders` (krm-functions-catalog): turns each `ResourceHierarchy` into the Config Connector
 * `Folder` resources (`resourcemanager.cnrm.cloud.google.com/v1beta1`) of its folder tree, one file
 * each (`folder_<name>.yaml`, kyaml's default path). Folder names are the dotted path of display
 * names, normalised to DNS subdomain characters (`Team "One"` under `Dev` → `dev.team-one`).
 *
 * - `cft.dev/v1alpha1`: `spec.organization` and `spec.layers`, each layer's folders in
 *   `spec.config.<layer>`; parents as `cnrm.cloud.google.com/organization-id` / `folder-ref` annotations.
 * - `cft.dev/v1alpha2`: `spec.parentRef` and a nested `spec.config` tree (with `$subtree` references to
 *   `spec.subtrees`); parents as annotations.
 * - `blueprints.cloud.google.com/v1alpha3`: as v1alpha2, parents as `spec.organizationRef` /
 *   `spec.folderRef`, a `config.kubernetes.io/depends-on` on the parent folder when namespaced, and the
 *   hierarchy's own annotations inherited.
 *
 * v1alpha1/v1alpha2 hierarchies get a `warn` result asking to upgrade.
 */
import { Document } from "yaml";
import { PIPELINE_ANNOTATIONS } from "../../krm/annotations.js";
import type { FunctionResult, KrmResource, ResultSeverity } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { fileOf, getString, resourceRef, toJs } from "./yaml-nodes.js";

const FOLDER_API_VERSION = "resourcemanager.cnrm.cloud.google.com/v1beta1";
const V1 = "cft.dev/v1alpha1";
const V2 = "cft.dev/v1alpha2";
const V3 = "blueprints.cloud.google.com/v1alpha3";
const DEPENDS_ON = "config.kubernetes.io/depends-on";
const NOT_INHERITED = new Set<string>([
  ...PIPELINE_ANNOTATIONS,
  "config.kubernetes.io/local-config",
  "config.k8s.io/function",
]);

interface TreeNode {
  name: string;
  kind?: string;
  children: TreeNode[];
}

class MissingSubtree extends Error {}

/** DNS-subdomain friendly name, as the catalog function normalises it. */
export function normalizeFolderName(name: string): string {
  return name
    .toLowerCase()
    .replace(/['"]/g, "")
    .replace(/[_ ]/g, "-")
    .replace(/[^a-z0-9.\- ]/g, "");
}

function objectResult(hierarchy: KrmResource, message: string, severity: ResultSeverity): FunctionResult {
  const result: FunctionResult = { message, severity, resourceRef: resourceRef(hierarchy) };
  const file = fileOf(hierarchy);
  if (file) result.file = file;
  return result;
}

function folder(
  name: string,
  path: string[],
  parent: TreeNode,
  inherited: Record<string, string>,
  namespace: string | undefined,
  nativeRef: boolean,
): KrmResource {
  const parentName = path.join(".") || parent.name;
  const extra: Record<string, string> = {};
  let ref: Record<string, unknown> = {};
  if (nativeRef) {
    if (path.length === 0) {
      ref =
        parent.kind === "Organization"
          ? { organizationRef: { external: parentName } }
          : { folderRef: { external: parentName } };
    } else {
      ref = { folderRef: { name: normalizeFolderName(parentName) } };
      if (namespace !== undefined) {
        extra[DEPENDS_ON] =
          `resourcemanager.cnrm.cloud.google.com/namespaces/${namespace}/Folder/${normalizeFolderName(parentName)}`;
      }
    }
  } else {
    const key =
      parent.kind === "Organization"
        ? "cnrm.cloud.google.com/organization-id"
        : "cnrm.cloud.google.com/folder-ref";
    extra[key] = normalizeFolderName(parentName);
  }
  const annotations = { ...inherited, ...extra };
  const metadata: Record<string, unknown> = { name: normalizeFolderName([...path, name].join(".")) };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  if (namespace !== undefined) metadata.namespace = namespace;
  return new Document({
    apiVersion: FOLDER_API_VERSION,
    kind: "Folder",
    metadata,
    spec: { displayName: name, ...ref },
  }) as KrmResource;
}

function addChild(parent: TreeNode, child: unknown, subtrees: Map<string, TreeNode>): void {
  if (child === null || child === undefined) return;
  if (typeof child === "string") {
    parent.children.push({ name: child, children: [] });
    return;
  }
  if (typeof child !== "object" || Array.isArray(child)) return;
  const name = Object.keys(child)[0];
  if (name === undefined) return;
  const node: TreeNode = { name, children: [] };
  const children = (child as Record<string, unknown>)[name];
  if (Array.isArray(children)) {
    for (const c of children) addChild(node, c, subtrees);
  } else if (children !== null && typeof children === "object") {
    const ref = String((children as Record<string, unknown>).$subtree);
    const subtree = subtrees.get(ref);
    if (!subtree) throw new MissingSubtree(ref);
    node.children = subtree.children;
  }
  parent.children.push(node);
}

type Json = Record<string, unknown>;

/** A JSON value as an object (an empty one for anything else). */
function obj(value: unknown): Json {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

function inheritedAnnotations(meta: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const annotations = (meta.annotations ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(annotations)) {
    if (!NOT_INHERITED.has(k)) out[k] = String(v);
  }
  return out;
}

/** v1alpha2 / v1alpha3: folders of the `spec.config` tree, parents before children. */
function treeFolders(hierarchy: KrmResource, v3: boolean): KrmResource[] | FunctionResult {
  const js = obj(toJs(hierarchy.contents));
  const meta = obj(js.metadata);
  const name = String(meta.name ?? "");
  const spec = obj(js.spec);
  const parentRef = obj(spec.parentRef);
  if (parentRef.external === undefined || parentRef.external === null) {
    return objectResult(hierarchy, `ResourceHierarchy ${name} has an undefined parentRef`, "error");
  }
  if (parentRef.kind !== undefined && !["Organization", "Folder"].includes(String(parentRef.kind))) {
    return objectResult(hierarchy, `ResourceHierarchy ${name} has an unsupported parentRef kind`, "error");
  }
  const namespace = meta.namespace === undefined ? undefined : String(meta.namespace);
  const inherited = v3 ? inheritedAnnotations(meta) : {};
  const subtrees = new Map<string, TreeNode>();
  const root: TreeNode = {
    name: String(parentRef.external),
    kind: String(parentRef.kind ?? "Organization"),
    children: [],
  };
  try {
    for (const [subtreeName, children] of Object.entries(obj(spec.subtrees))) {
      const node: TreeNode = { name: subtreeName, kind: "Subtree", children: [] };
      for (const c of Array.isArray(children) ? children : []) addChild(node, c, subtrees);
      subtrees.set(subtreeName, node);
    }
    for (const c of Array.isArray(spec.config) ? spec.config : []) addChild(root, c, subtrees);
  } catch (err) {
    if (!(err instanceof MissingSubtree)) throw err;
    return objectResult(
      hierarchy,
      `ResourceHierarchy ${name} references non-existent subtree "${err.message}"`,
      "error",
    );
  }
  const out: KrmResource[] = [];
  const walk = (node: TreeNode, path: string[]) => {
    for (const child of node.children) {
      out.push(folder(child.name, path, node, inherited, namespace, v3));
      walk(child, [...path, child.name]);
    }
  };
  walk(root, []);
  return out;
}

/** v1alpha1: one level of folders per layer, every folder of a layer under each of the previous. */
function layerFolders(hierarchy: KrmResource): KrmResource[] | FunctionResult {
  const js = obj(toJs(hierarchy.contents));
  const meta = obj(js.metadata);
  const spec = obj(js.spec);
  const layers = (Array.isArray(spec.layers) ? spec.layers : []).map(String);
  const config = obj(spec.config);
  const namespace = meta.namespace === undefined ? undefined : String(meta.namespace);
  const out: KrmResource[] = [];
  const build = (node: TreeNode, layerIndex: number, path: string[]): FunctionResult | undefined => {
    if (layerIndex >= layers.length) return undefined;
    const layer = layers[layerIndex];
    const folders = config[layer];
    if (folders === undefined || folders === null) {
      return {
        severity: "error",
        message: `Layer "${layer}" has no corresponding entry config entry. Either\n      add to spec.config.${layer} or remove it from spec.layers\n      `,
      };
    }
    for (const f of Array.isArray(folders) ? folders : []) {
      const folderName = String(f);
      out.push(folder(folderName, path, node, {}, namespace, false));
      const child: TreeNode = { name: folderName, children: [] };
      const err = build(child, layerIndex + 1, [...path, folderName]);
      if (err) return err;
    }
    return undefined;
  };
  const err = build({ name: String(spec.organization), kind: "Organization", children: [] }, 0, []);
  return err ?? out;
}

function oldVersionWarning(hierarchy: KrmResource): FunctionResult {
  const name = getString(hierarchy, ["metadata", "name"]) ?? "";
  return objectResult(
    hierarchy,
    `ResourceHierarchy ${name} references an older Resource Hierarchy GroupVersion. Latest GroupVersion is blueprints.cloud.google.com/v1alpha3.`,
    "warn",
  );
}

function isHierarchy(doc: KrmResource, apiVersion: string): boolean {
  return getString(doc, ["apiVersion"]) === apiVersion && getString(doc, ["kind"]) === "ResourceHierarchy";
}

function identity(doc: KrmResource): string {
  const ref = resourceRef(doc);
  return [ref.apiVersion, ref.kind, ref.namespace, ref.name].join("|");
}

/**
 * The TypeScript SDK's `Configs.insert`: a generated resource replaces the input resource of the same
 * apiVersion, kind, namespace and name (in its place, without its file annotations, so it goes to its
 * default file), else it is appended. Re-rendering therefore regenerates rather than duplicates.
 */
function insertReplacing(items: readonly KrmResource[], generated: readonly KrmResource[]): KrmResource[] {
  const out = [...items];
  const at = new Map(out.map((doc, i) => [identity(doc), i]));
  for (const doc of generated) {
    const i = at.get(identity(doc));
    if (i === undefined) {
      at.set(identity(doc), out.length);
      out.push(doc);
    } else {
      out[i] = doc;
    }
  }
  return out;
}

/** The builtin `generate-folders`. */
export const generateFolders: BuiltinFunction = {
  name: "generate-folders",
  catalogVersion: "v0.1.1",
  run(input) {
    const results: FunctionResult[] = [];
    const generated: KrmResource[] = [];
    const take = (out: KrmResource[] | FunctionResult) => {
      if (Array.isArray(out)) generated.push(...out);
      else results.push(out);
    };
    for (const h of input.items.filter((d) => isHierarchy(d, V1))) {
      results.push(oldVersionWarning(h));
      take(layerFolders(h));
    }
    const v3 = input.items.filter((d) => isHierarchy(d, V3));
    const v2 = input.items.filter((d) => isHierarchy(d, V2));
    for (const h of [...v3, ...v2]) {
      const isV3 = v3.includes(h);
      if (!isV3) results.push(oldVersionWarning(h));
      take(treeFolders(h, isV3));
    }
    // The catalog's TypeScript SDK writes nothing to stderr when it reports results.
    return { items: insertReplacing(input.items, generated), results, stderr: "" };
  },
};
