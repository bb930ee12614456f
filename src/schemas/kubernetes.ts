/**
 * The one source of Kubernetes OpenAPI schemas in porchlight: a kind's schema by apiVersion/kind, a
 * field's schema and its list-merge keys, for the validators, Starlark's `ctx.open_api` and the package
 * merge. The documents (which Kubernetes versions, from which registry packages, loaded lazily) are
 * `kubernetes-documents.ts`. Returned objects are shared: never mutate.
 */
import {
  type OpenApiSchema,
  openApiDocument,
  openApiVersion,
  versionOrDefault,
} from "./kubernetes-documents.js";

export {
  defaultKubernetesVersion,
  fromModelSchema,
  kubernetesVersions,
  type OpenApiSchema,
  openApiDocument,
  openApiVersion,
  resolveKubernetesVersion,
} from "./kubernetes-documents.js";

/** How a list field merges (kyaml / strategic merge patch): keys from the field's OpenAPI extensions. */
export interface ListMergeInfo {
  /** `x-kubernetes-patch-merge-key`, e.g. `name` for `containers`, `containerPort` for `ports`. */
  mergeKey?: string;
  /** `x-kubernetes-patch-strategy`, e.g. `merge` or `merge,retainKeys`. */
  patchStrategy?: string;
  /** `x-kubernetes-list-type`: `atomic`, `set` or `map`. */
  listType?: string;
  /** `x-kubernetes-list-map-keys`, e.g. `["containerPort", "protocol"]`. */
  listMapKeys?: string[];
}

const gvkIndexes = new Map<string, Map<string, string>>();

function gvkKey(group: string, version: string, kind: string): string {
  return `${group}/${version}/${kind}`;
}

function gvkIndex(version: string): Map<string, string> {
  let index = gvkIndexes.get(version);
  if (!index) {
    index = new Map();
    for (const [name, schema] of Object.entries(openApiDocument(version).definitions)) {
      const gvks = schema["x-kubernetes-group-version-kind"];
      if (!Array.isArray(gvks)) continue;
      for (const gvk of gvks as Array<{ group?: string; version?: string; kind?: string }>) {
        const key = gvkKey(gvk.group ?? "", gvk.version ?? "", gvk.kind ?? "");
        // The first definition wins (the api group's own, before aliases such as `extensions`).
        if (!index.has(key)) index.set(key, name);
      }
    }
    gvkIndexes.set(version, index);
  }
  return index;
}

/**
 * The definition name of a kind (`apps/v1`, `Deployment` → `io.k8s.api.apps.v1.Deployment`), from the
 * definitions' `x-kubernetes-group-version-kind`; undefined for kinds Kubernetes does not define
 * (custom resources, Kptfiles, function configs).
 */
export function definitionNameFor(apiVersion: string, kind: string, version?: string): string | undefined {
  const v = versionOrDefault(version);
  const slash = apiVersion.indexOf("/");
  const group = slash < 0 ? "" : apiVersion.slice(0, slash);
  const ver = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return gvkIndex(v).get(gvkKey(group, ver, kind));
}

/**
 * The schema of a kind (see {@link definitionNameFor}; default version: the newest shipped) with its
 * definition name, or undefined.
 */
export function kindSchema(
  apiVersion: string,
  kind: string,
  version?: string,
): { name: string; schema: OpenApiSchema } | undefined {
  const v = versionOrDefault(version);
  const name = definitionNameFor(apiVersion, kind, v);
  if (!name) return undefined;
  return { name, schema: openApiDocument(v).definitions[name] };
}

/**
 * Follows `$ref` (`#/definitions/<name>`) until a schema without one; a missing target yields
 * undefined. Other keys next to a `$ref` (descriptions) are ignored, as OpenAPI v2 does.
 */
export function dereference(schema: OpenApiSchema | undefined, version?: string): OpenApiSchema | undefined {
  let cur = schema;
  for (let hops = 0; cur && typeof cur.$ref === "string" && hops < 64; hops++) {
    const ref = cur.$ref as string;
    const name = ref.startsWith("#/definitions/") ? ref.slice("#/definitions/".length) : ref;
    cur = openApiDocument(version).definitions[name];
  }
  return cur;
}

/**
 * The schema of the field at `fieldPath` below a kind: a path of field names from the resource root
 * (`["spec", "template", "spec", "containers"]`), list items being entered implicitly (`["spec",
 * "template", "spec", "containers", "ports"]` is each container's `ports`). Undefined when the kind or
 * a field is unknown.
 */
export function fieldSchema(
  apiVersion: string,
  kind: string,
  fieldPath: readonly string[],
  version: string = openApiVersion(),
): OpenApiSchema | undefined {
  let cur = dereference(kindSchema(apiVersion, kind, version)?.schema, version);
  for (const field of fieldPath) {
    if (!cur) return undefined;
    if (cur.type === "array" && cur.items && typeof cur.items === "object") {
      cur = dereference(cur.items as OpenApiSchema, version);
      if (!cur) return undefined;
    }
    const props = cur.properties as Record<string, OpenApiSchema> | undefined;
    const next = props?.[field];
    if (!next) return undefined;
    // Keep the field's own extensions (they sit beside a $ref): resolve only when descending further.
    cur = next.$ref ? { ...dereference(next, version), ...withoutRef(next) } : next;
  }
  return cur;
}

function withoutRef(schema: OpenApiSchema): OpenApiSchema {
  const { $ref: _ref, ...rest } = schema;
  return rest;
}

/**
 * How the list at `fieldPath` (see {@link fieldSchema}) merges: kyaml's strategic-merge keys from
 * `x-kubernetes-patch-merge-key` / `x-kubernetes-patch-strategy` / `x-kubernetes-list-type` /
 * `x-kubernetes-list-map-keys`. Undefined when the field is unknown or not a list; an object with no
 * key set for a list merged atomically.
 */
export function listMergeInfo(
  apiVersion: string,
  kind: string,
  fieldPath: readonly string[],
  version: string = openApiVersion(),
): ListMergeInfo | undefined {
  const schema = fieldSchema(apiVersion, kind, fieldPath, version);
  if (schema?.type !== "array") return undefined;
  return new SchemaNode(schema, version).merge;
}

/**
 * A node of a kind's schema, for walking a resource alongside it (kyaml's `openapi.ResourceSchema`):
 * `field(name)` descends into a property (or a map's `additionalProperties`), `elements()` into a
 * list's items, `$ref`s resolved; the node's own strategic-merge keys are in {@link SchemaNode.merge}.
 */
export class SchemaNode {
  /** The node's schema, `$ref` resolved (keys beside the `$ref`, such as merge keys, merged in). */
  readonly schema: OpenApiSchema;

  constructor(
    schema: OpenApiSchema,
    /** The Kubernetes version whose definitions `$ref`s resolve in. */
    readonly version: string,
  ) {
    this.schema = schema.$ref ? { ...dereference(schema, version), ...withoutRef(schema) } : schema;
  }

  /** The schema of field `name` (a property, or the value schema of a map), or undefined. */
  field(name: string): SchemaNode | undefined {
    const props = this.schema.properties as Record<string, OpenApiSchema> | undefined;
    const next =
      props?.[name] ??
      (typeof this.schema.additionalProperties === "object" ? this.schema.additionalProperties : undefined);
    return next ? new SchemaNode(next as OpenApiSchema, this.version) : undefined;
  }

  /** The schema of a list's items, or undefined when the node is not a list. */
  elements(): SchemaNode | undefined {
    const items = this.schema.items;
    return items && typeof items === "object" && !Array.isArray(items)
      ? new SchemaNode(items as OpenApiSchema, this.version)
      : undefined;
  }

  /** The strategic-merge keys of this (list) node: see {@link ListMergeInfo}. */
  get merge(): ListMergeInfo {
    const info: ListMergeInfo = {};
    const s = this.schema;
    if (typeof s["x-kubernetes-patch-merge-key"] === "string")
      info.mergeKey = s["x-kubernetes-patch-merge-key"];
    if (typeof s["x-kubernetes-patch-strategy"] === "string")
      info.patchStrategy = s["x-kubernetes-patch-strategy"];
    if (typeof s["x-kubernetes-list-type"] === "string") info.listType = s["x-kubernetes-list-type"];
    const keys = s["x-kubernetes-list-map-keys"];
    if (Array.isArray(keys)) info.listMapKeys = keys.map(String);
    return info;
  }
}

/**
 * The schema of a kind as a {@link SchemaNode} (default version: {@link openApiVersion}, whose document
 * carries the merge keys), or undefined for kinds Kubernetes does not define.
 */
export function resourceSchema(
  apiVersion: string,
  kind: string,
  version: string = openApiVersion(),
): SchemaNode | undefined {
  const v = versionOrDefault(version);
  const found = kindSchema(apiVersion, kind, v);
  return found ? new SchemaNode(found.schema, v) : undefined;
}
