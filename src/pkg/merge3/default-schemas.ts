/**
 * The merge's schemas from porchlight's Kubernetes schema module (`src/schemas`): a resource type's
 * OpenAPI definition navigated the way kyaml's `openapi.ResourceSchema` does (`Field`: a property,
 * else the `additionalProperties` schema; `Elements`: the `items` of an `array`; `$ref`s resolved),
 * exposing the list merge extensions. Kinds Kubernetes does not define (custom resources) have none.
 */
import { dereference, kindSchema, type OpenApiSchema, openApiVersion } from "../../schemas/kubernetes.js";
import type { MergeSchemaNode, MergeSchemas } from "./schema.js";

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function node(schema: OpenApiSchema): MergeSchemaNode {
  const mapKeys = schema["x-kubernetes-list-map-keys"];
  return {
    field(name) {
      const props = schema.properties as Record<string, OpenApiSchema> | undefined;
      const additional = schema.additionalProperties;
      const next =
        props?.[name] ??
        (additional && typeof additional === "object" ? (additional as OpenApiSchema) : undefined);
      const resolved = dereference(next);
      return resolved ? node(resolved) : undefined;
    },
    elements() {
      if (schema.type !== "array" || !schema.items || typeof schema.items !== "object") return undefined;
      const resolved = dereference(schema.items as OpenApiSchema);
      return resolved ? node(resolved) : undefined;
    },
    patchStrategy: str(schema["x-kubernetes-patch-strategy"]),
    patchMergeKey: str(schema["x-kubernetes-patch-merge-key"]),
    listMapKeys: Array.isArray(mapKeys) ? mapKeys.map(String) : undefined,
  };
}

/** The schemas of the built-in Kubernetes types (the schema module's default version). */
export function defaultMergeSchemas(): MergeSchemas {
  const cache = new Map<string, MergeSchemaNode | undefined>();
  return {
    forType(apiVersion, kind) {
      const key = `${apiVersion}\u0000${kind}`;
      if (!cache.has(key)) {
        const found = kindSchema(apiVersion, kind, openApiVersion());
        const resolved = found ? dereference(found.schema) : undefined;
        cache.set(key, resolved ? node(resolved) : undefined);
      }
      return cache.get(key);
    },
  };
}
