/**
 * Reading a step's functionConfig the way the kpt function SDK (`fn.runnerProcessor`) does: no config,
 * a `ConfigMap` whose `data` fills the function's string map, or the function's own kind in
 * `fn.kpt.dev/v1alpha1`.
 */
import { isMap, isScalar } from "yaml";
import {
  getAnnotation,
  INTERNAL_INDEX,
  INTERNAL_PATH,
  LEGACY_INDEX,
  LEGACY_PATH,
} from "../../krm/annotations.js";
import type { FunctionResult, KrmResource } from "../../krm/resource-list.js";
import { getMap, getNode, getString, groupOf, isNullish, resourceRef, scalarString } from "./yaml-nodes.js";

/** The fn config group all catalog functions use for their own kinds. */
export const FN_CONFIG_GROUP = "fn.kpt.dev";

/** Type information of a functionConfig. */
export interface ConfigType {
  apiVersion: string;
  kind: string;
  group: string;
  name: string;
}

/** apiVersion/kind/group/name of the config (empty strings when absent). */
export function configType(config: KrmResource | undefined): ConfigType {
  const apiVersion = getString(config, ["apiVersion"]) ?? "";
  return {
    apiVersion,
    kind: getString(config, ["kind"]) ?? "",
    group: groupOf(apiVersion),
    name: getString(config, ["metadata", "name"]) ?? "",
  };
}

/**
 * SDK `IsEmpty() || EmptyFunctionConfig()`: no config, an empty object, or kpt's placeholder
 * ConfigMap `function-input` with empty `data`.
 */
export function isEmptyConfig(config: KrmResource | undefined): boolean {
  if (!config) return true;
  const contents = config.contents;
  if (contents === null || contents === undefined) return true;
  if (isScalar(contents) && (contents.value === null || contents.value === "")) return true;
  if (isMap(contents) && contents.items.length === 0) return true;
  const t = configType(config);
  if (t.kind === "" && t.name === "" && t.apiVersion === "") return true;
  if (t.kind === "ConfigMap" && t.name === "function-input") {
    const data = getMap(config, ["data"]);
    return !data || data.items.length === 0;
  }
  return false;
}

/**
 * A ConfigMap's `data` as a string map. Returns an error message when `data` is not a map of
 * scalars (the SDK's `NestedStringMap` failure).
 */
export function configMapData(config: KrmResource): { data: Map<string, string> } | { error: string } {
  const node = getNode(config, ["data"]);
  const data = new Map<string, string>();
  if (isNullish(node)) return { data };
  if (!isMap(node)) {
    const t = configType(config);
    return {
      error: `Resource(apiVersion=${t.apiVersion}, kind=${t.kind}) has unmatched field type "map[string]string" in fieldpath .data`,
    };
  }
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const value = scalarString(pair.value);
    if (value !== undefined) {
      data.set(key, value);
    } else if (isNullish(pair.value)) {
      data.set(key, "");
    } else {
      const t = configType(config);
      return {
        error: `Resource(apiVersion=${t.apiVersion}, kind=${t.kind}) has unmatched field type "map[string]string" in fieldpath .data`,
      };
    }
  }
  return { data };
}

/**
 * An error result about the functionConfig (SDK `ErrorConfigObjectResult`): its resourceRef and its
 * file (path annotation, index annotation or -1 when absent, as the SDK's `IndexAnnotation`).
 */
export function configErrorResult(message: string, config: KrmResource | undefined): FunctionResult {
  const path = config
    ? (getAnnotation(config, INTERNAL_PATH) ?? getAnnotation(config, LEGACY_PATH))
    : undefined;
  const indexText = config
    ? (getAnnotation(config, INTERNAL_INDEX) ?? getAnnotation(config, LEGACY_INDEX))
    : undefined;
  const index = indexText ? Number.parseInt(indexText, 10) : -1;
  return {
    message,
    severity: "error",
    resourceRef: resourceRef(config),
    file: { path: path ?? "", index: Number.isNaN(index) ? 0 : index },
  };
}

/** Go's JSON type name of a decoded YAML value, for "cannot unmarshal X into ..." messages. */
export function goJsonTypeName(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  if (typeof value === "object") return "object";
  if (typeof value === "boolean") return "bool";
  return typeof value;
}
