/**
 * The merge's schemas from porchlight's Kubernetes schema module (`src/schemas`): a resource type's
 * OpenAPI definition, walked with the module's `SchemaNode` (kyaml's `openapi.ResourceSchema`), with
 * its list merge extensions (from the newest shipped document that carries them, `openApiVersion()`,
 * which `resourceSchema` defaults to). Kinds Kubernetes does not define (custom resources) have none.
 */
import { resourceSchema, type SchemaNode } from "../../schemas/kubernetes.js";
import type { MergeSchemaNode, MergeSchemas } from "./schema.js";

function adapt(node: SchemaNode): MergeSchemaNode {
  const merge = node.merge;
  return {
    field: (name) => {
      const next = node.field(name);
      return next ? adapt(next) : undefined;
    },
    elements: () => {
      const next = node.schema.type === "array" ? node.elements() : undefined;
      return next ? adapt(next) : undefined;
    },
    patchStrategy: merge.patchStrategy,
    patchMergeKey: merge.mergeKey,
    listMapKeys: merge.listMapKeys,
  };
}

/** The schemas of the built-in Kubernetes types (the schema module's default version). */
export function defaultMergeSchemas(): MergeSchemas {
  const cache = new Map<string, MergeSchemaNode | undefined>();
  return {
    forType(apiVersion, kind) {
      const key = `${apiVersion}\u0000${kind}`;
      if (!cache.has(key)) {
        const found = resourceSchema(apiVersion, kind);
        cache.set(key, found ? adapt(found) : undefined);
      }
      return cache.get(key);
    },
  };
}
