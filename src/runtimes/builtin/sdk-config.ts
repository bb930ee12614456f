/**
 * The kpt function SDK's `runnerProcessor` config step for map-based functions (set-labels,
 * set-annotations): no config gives the info result "`FunctionConfig` is not given"; a ConfigMap's
 * `data` becomes the map; the function's own kind (`fn.kpt.dev`) is decoded as JSON would be.
 */
import type { FunctionResult, KrmResource } from "../../krm/resource-list.js";
import {
  configMapData,
  configType,
  FN_CONFIG_GROUP,
  goJsonTypeName,
  isEmptyConfig,
} from "./function-config.js";
import { toJs } from "./yaml-nodes.js";

/** Outcome of reading the config: the string map (possibly empty) or a failing error result. */
export type SdkMapConfig =
  | {
      ok: true;
      map: Map<string, string>;
      given: boolean;
      raw: Record<string, unknown>;
      results: FunctionResult[];
    }
  | { ok: false; results: FunctionResult[] };

/**
 * Reads `functionConfig` for a runner named `kind` (e.g. `SetLabels`) whose string map lives in the
 * field `field` (e.g. `labels`). `goType` names the Go receiver in decoding errors
 * (e.g. `*setlabels.SetLabels`).
 */
export function readSdkMapConfig(options: {
  config: KrmResource | undefined;
  kind: string;
  field: string;
  goType: string;
}): SdkMapConfig {
  const { config, kind, field, goType } = options;
  if (isEmptyConfig(config) || !config) {
    return {
      ok: true,
      map: new Map(),
      given: false,
      raw: {},
      results: [{ message: "`FunctionConfig` is not given", severity: "info" }],
    };
  }
  const t = configType(config);
  if (t.kind === "ConfigMap" && t.group === "") {
    const parsed = configMapData(config);
    if ("error" in parsed) return { ok: false, results: [{ message: parsed.error, severity: "error" }] };
    return { ok: true, map: parsed.data, given: true, raw: {}, results: [] };
  }
  if (t.kind === kind && t.group === FN_CONFIG_GROUP) {
    const raw = (toJs(config.contents) ?? {}) as Record<string, unknown>;
    const value = raw[field];
    const map = new Map<string, string>();
    const fail = (what: string, goField: string) => ({
      ok: false as const,
      results: [
        {
          message: `unable to convert object to ${goType} with error: json: cannot unmarshal ${what} into Go struct field ${kind}.${field} of type ${goField}`,
          severity: "error" as const,
        },
      ],
    });
    if (value !== undefined && value !== null) {
      if (typeof value !== "object" || Array.isArray(value)) {
        return fail(goJsonTypeName(value), "map[string]string");
      }
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (v === null) continue;
        if (typeof v !== "string") return fail(goJsonTypeName(v), "string");
        map.set(k, v);
      }
    }
    return { ok: true, map, given: true, raw, results: [] };
  }
  const gk = t.group === "" ? t.kind : `${t.kind}.${t.group}`;
  return {
    ok: false,
    results: [
      {
        message: `unknown FunctionConfig \`${gk}\`, expect \`${kind}.${FN_CONFIG_GROUP}\` or \`ConfigMap.v1\``,
        severity: "error",
      },
    ],
  };
}

/** The SDK runner's `EmptyfnConfig` check used by set-labels: no kind and no name. */
export function isPlaceholderConfig(config: KrmResource | undefined): boolean {
  const t = configType(config);
  if (t.kind === "ConfigMap" && t.name === "function-input") return isEmptyConfig(config);
  return t.kind === "" && t.name === "";
}
