/**
 * `set-enforcement-action` (krm-functions-catalog): sets `spec.enforcementAction` of every Gatekeeper
 * constraint (`constraints.gatekeeper.sh/v1beta1`) to the ConfigMap's `enforcementAction` (`deny`,
 * `warn` or `dryrun`), reporting each policy and their count.
 */
import type { FunctionResult } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { configMapData } from "./function-config.js";
import { ensureMap, fileOf, getString, setMapString } from "./yaml-nodes.js";

const POLICY_API_VERSION = "constraints.gatekeeper.sh/v1beta1";
const ACTIONS = ["deny", "warn", "dryrun"];

function failure(message: string) {
  const text = `failed to process policies: ${message}`;
  return { results: [{ message: text, severity: "error" as const }], stderr: message };
}

/** The builtin `set-enforcement-action`. */
export const setEnforcementAction: BuiltinFunction = {
  name: "set-enforcement-action",
  catalogVersion: "v0.1.0",
  run(input) {
    const parsed = input.functionConfig
      ? configMapData(input.functionConfig)
      : { data: new Map<string, string>() };
    const data = "error" in parsed ? new Map<string, string>() : parsed.data;
    if (data.size !== 1) {
      return {
        items: input.items,
        ...failure("expecting exactly 1 enforcementAction as part of the ConfigMap"),
      };
    }
    const action = data.get("enforcementAction") ?? "";
    if (!ACTIONS.includes(action)) {
      return {
        items: input.items,
        ...failure(`expected values for enforcementAction are [deny] or [warn] or [dryrun]`),
      };
    }
    const results: FunctionResult[] = [];
    for (const doc of input.items) {
      const name = getString(doc, ["metadata", "name"]) ?? "";
      const kind = getString(doc, ["kind"]) ?? "";
      if (name === "" || kind === "" || getString(doc, ["apiVersion"]) !== POLICY_API_VERSION) continue;
      const spec = ensureMap(doc, ["spec"]);
      if (!spec) continue;
      setMapString(spec, "enforcementAction", action);
      results.push({
        message: `Policy name: [${name}]`,
        severity: "info",
        file: { path: fileOf(doc)?.path ?? "" },
      });
    }
    if (results.length === 0) {
      results.push({ message: `Found no policy to set to [${action}]`, severity: "warning" });
    } else {
      results.unshift({
        message: `Number of policies set to [${action}]: ${results.length}`,
        severity: "info",
      });
    }
    return { items: input.items, results };
  },
};
