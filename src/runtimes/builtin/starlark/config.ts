/**
 * The `starlark` function's functionConfig, as the catalog reads it: a `StarlarkRun`
 * (`fn.kpt.dev/v1alpha1`: `metadata.name`, `source`, `params`) or a `ConfigMap` whose `data.source` is the
 * script (its other `data` keys are parameters the script reads from `ctx.resource_list["functionConfig"]`).
 * Errors are worded as the catalog words them.
 */
import { isMap, isScalar } from "yaml";
import type { KrmResource } from "../../../krm/resource-list.js";
import { configType } from "../function-config.js";
import { getNode } from "../yaml-nodes.js";

/** The script to run: its name (thread and file name in messages) and its source. */
export interface StarlarkRun {
  name: string;
  source: string;
}

/** The catalog's program name when the config has no `metadata.name`. */
export const DEFAULT_PROGRAM_NAME = "starlark-function-run";

/** apimachinery's `GroupVersionKind.String()`: `group/version, Kind=kind` (group may be empty). */
function gvkString(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf("/");
  const group = slash < 0 ? "" : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return `${group}/${version}, Kind=${kind}`;
}

/** The Go JSON type name of a YAML node's value (for "cannot unmarshal X" messages). */
function jsonType(node: unknown): string {
  if (isMap(node)) return "object";
  if (isScalar(node)) {
    const v = node.value;
    if (typeof v === "number" || typeof v === "bigint") return "number";
    if (typeof v === "boolean") return "bool";
    if (v === null) return "null";
    return "string";
  }
  return "array";
}

function isEmpty(config: KrmResource | undefined): boolean {
  if (!config) return true;
  const contents = config.contents;
  if (contents === null || contents === undefined) return true;
  if (isScalar(contents)) return contents.value === null || contents.value === "";
  return isMap(contents) && contents.items.length === 0;
}

/** A string field: its text, "" when absent or null, or an error when it is not a string. */
function stringField(
  config: KrmResource,
  path: readonly string[],
  goStruct: string,
): { value: string } | { error: string } {
  const node = getNode(config, path);
  if (node === undefined || node === null || (isScalar(node) && node.value === null)) return { value: "" };
  if (isScalar(node) && typeof node.value === "string") return { value: node.value };
  const field = path[path.length - 1];
  return {
    error: `json: cannot unmarshal ${jsonType(node)} into Go struct field ${goStruct}.${field} of type string`,
  };
}

/**
 * Reads the functionConfig. Returns the run, or the error message the catalog reports:
 * "FunctionConfig is missing. Expect `ConfigMap` or `StarlarkRun`", "`functionConfig` must be either
 * /v1, Kind=ConfigMap or fn.kpt.dev/v1alpha1, Kind=StarlarkRun, but we got: …", "`source` must not be empty".
 */
export function readStarlarkRun(config: KrmResource | undefined): StarlarkRun | { error: string } {
  if (isEmpty(config) || !config)
    return { error: "FunctionConfig is missing. Expect `ConfigMap` or `StarlarkRun`" };
  const t = configType(config);
  let source: string;
  if (t.apiVersion === "v1" && t.kind === "ConfigMap") {
    const data = getNode(config, ["data"]);
    if (data !== undefined && data !== null && !isMap(data) && !(isScalar(data) && data.value === null)) {
      return {
        error: `json: cannot unmarshal ${jsonType(data)} into Go struct field ConfigMap.data of type map[string]string`,
      };
    }
    if (isMap(data)) {
      for (const pair of data.items) {
        const value = pair.value;
        if (value === null || (isScalar(value) && (value.value === null || typeof value.value === "string")))
          continue;
        return {
          error: `json: cannot unmarshal ${jsonType(value)} into Go struct field ConfigMap.data of type string`,
        };
      }
    }
    const read = stringField(config, ["data", "source"], "ConfigMap.data");
    if ("error" in read) return read;
    source = read.value;
  } else if (t.apiVersion === "fn.kpt.dev/v1alpha1" && t.kind === "StarlarkRun") {
    const read = stringField(config, ["source"], "StarlarkRun");
    if ("error" in read) return read;
    source = read.value;
  } else {
    return {
      error:
        "`functionConfig` must be either /v1, Kind=ConfigMap or fn.kpt.dev/v1alpha1, Kind=StarlarkRun, but we got: " +
        gvkString(t.apiVersion, t.kind),
    };
  }
  if (source === "") return { error: "`source` must not be empty" };
  return { name: t.name || DEFAULT_PROGRAM_NAME, source };
}
