/**
 * What the 3-way merge needs from the Kubernetes OpenAPI schemas: kyaml's `openapi.ResourceSchema`
 * navigation (a resource type's schema, a field's schema, a list's element schema) and the list
 * merge extensions (`x-kubernetes-patch-strategy`, `x-kubernetes-patch-merge-key`,
 * `x-kubernetes-list-map-keys`) that decide whether a list is merged element by element.
 */

/** One node of a schema, as the merge walks it (kyaml's `ResourceSchema`). */
export interface MergeSchemaNode {
  /** The schema of a field of an object (its `properties` or `additionalProperties`), refs resolved. */
  field(name: string): MergeSchemaNode | undefined;
  /** The schema of the elements of an array, refs resolved. */
  elements(): MergeSchemaNode | undefined;
  /** `x-kubernetes-patch-strategy` (`merge`, `merge,retainKeys`, `replace`), if any. */
  readonly patchStrategy?: string | undefined;
  /** `x-kubernetes-patch-merge-key`, if any. */
  readonly patchMergeKey?: string | undefined;
  /** `x-kubernetes-list-map-keys`, if any. */
  readonly listMapKeys?: readonly string[] | undefined;
}

/** The schemas of resource types, looked up by `apiVersion` and `kind` (kyaml's `SchemaForResourceType`). */
export interface MergeSchemas {
  forType(apiVersion: string, kind: string): MergeSchemaNode | undefined;
}

/**
 * kyaml's `PatchStrategyAndKeyList`: the patch strategy and the list's merge keys — the list-map
 * keys when given, else the patch merge key, else none (a list of scalars merged as a set).
 * Without a patch strategy there are no keys.
 */
export function patchStrategyAndKeys(node: MergeSchemaNode): { strategy: string; keys: string[] } {
  const strategy = node.patchStrategy;
  if (!strategy) return { strategy: "", keys: [] };
  if (node.listMapKeys && node.listMapKeys.length > 0) return { strategy, keys: [...node.listMapKeys] };
  if (node.patchMergeKey) return { strategy, keys: [node.patchMergeKey] };
  return { strategy, keys: [] };
}

/** Whether a list's schema says its elements merge (`merge` among the patch strategies). */
export function hasMergeStrategy(node: MergeSchemaNode): boolean {
  return (node.patchStrategy ?? "").split(",").includes("merge");
}

/**
 * A schema that carries no information: what kyaml uses for a field whose comment holds field
 * metadata (a setter's `{"$ref": ...}`). Lists under it are not merged element by element.
 */
export const OPAQUE_SCHEMA: MergeSchemaNode = {
  field: () => undefined,
  elements: () => undefined,
};

/** No schemas at all: every list is replaced as a whole unless inferred (Kptfile merges). */
export const NO_SCHEMAS: MergeSchemas = { forType: () => undefined };
