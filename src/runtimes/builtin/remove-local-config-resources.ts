/**
 * `remove-local-config-resources` (krm-functions-catalog): drops every resource annotated
 * `config.kubernetes.io/local-config: "true"` (case-insensitive), reporting each and their count.
 */
import type { FunctionResult } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { fileOf, getAnnotation, getString } from "./yaml-nodes.js";

/** The builtin `remove-local-config-resources`. */
export const removeLocalConfigResources: BuiltinFunction = {
  name: "remove-local-config-resources",
  catalogVersion: "v0.1.0",
  run(input) {
    const results: FunctionResult[] = [];
    const items = input.items.filter((doc) => {
      const local = getAnnotation(doc, "config.kubernetes.io/local-config")?.toLowerCase() === "true";
      if (local) {
        const name = getString(doc, ["metadata", "name"]) ?? "";
        results.push({
          message: `Resource name: [${name}]`,
          severity: "info",
          file: { path: fileOf(doc)?.path ?? "" },
        });
      }
      return !local;
    });
    if (results.length === 0) {
      results.push({
        message: "Found no resources to prune with the local config annotation",
        severity: "warning",
      });
    } else {
      results.unshift({ message: `Number of resources pruned: ${results.length}`, severity: "info" });
    }
    return { items, results };
  },
};
