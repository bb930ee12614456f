/** Test helpers: YAML text <-> ResourceList of yaml Documents, and running one builtin. */
import { Document, parseAllDocuments } from "yaml";
import type { KrmResource, ResourceList } from "../../src/krm/resource-list.js";
import type { BuiltinFunction, BuiltinFunctionOutput } from "../../src/runtimes/builtin/builtin-function.js";

/** Parses multi-document YAML into resources (empty documents dropped). */
export function docs(text: string): KrmResource[] {
  return parseAllDocuments(text).filter((d) => d.contents !== null) as KrmResource[];
}

/** Serialises resources back, kyaml-like (sequences indented under their key, no line folding). */
export function dump(items: KrmResource[]): string {
  return items.map((d) => d.toString({ lineWidth: 0, directives: false })).join("---\n");
}

/** A ConfigMap functionConfig from `data`, as kpt builds it from `configMap:`. */
export function configMap(data: Record<string, string>): KrmResource {
  return new Document({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "function-input", annotations: { "config.kubernetes.io/local-config": "true" } },
    data,
  });
}

/** Runs a builtin on YAML text with an optional functionConfig (YAML text or Document). */
export async function runBuiltin(
  fn: BuiltinFunction,
  items: string,
  functionConfig?: string | KrmResource,
): Promise<BuiltinFunctionOutput & { yaml: string }> {
  const fc = typeof functionConfig === "string" ? docs(functionConfig)[0] : functionConfig;
  const list: ResourceList = { items: docs(items), functionConfig: fc, results: [] };
  const out = await fn.run(list);
  return { ...out, yaml: dump(out.items) };
}
