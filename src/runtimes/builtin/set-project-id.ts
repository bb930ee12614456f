/**
 * `set-project-id` (krm-functions-catalog): given `project-id` in a ConfigMap, it
 * - adds the `project-id` setter to every Kptfile's first `apply-setters` mutator (its `configMap:`,
 *   or the ConfigMap its `configPath:` names), keeping a value already there, or appends an
 *   `apply-setters:v0.2` mutator with that setter when the pipeline has none;
 * - annotates every Config Connector resource (`<service>.cnrm.cloud.google.com/*`, `core` aside)
 *   that lacks it with `cnrm.cloud.google.com/project-id: <project-id>`.
 */
import { isMap, isSeq, YAMLMap, YAMLSeq } from "yaml";
import type { KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { configMapData } from "./function-config.js";
import { ensureMap, fileOf, getMap, getNode, getString, setMapString } from "./yaml-nodes.js";

const SETTER = "project-id";
const ANNOTATION = "cnrm.cloud.google.com/project-id";
const KCC_API_VERSION = /^(\w+)\.cnrm\.cloud\.google\.com\/\w+$/;
const DEFAULT_APPLY_SETTERS = "gcr.io/kpt-fn/apply-setters:v0.2";

class ProjectIdError extends Error {}

function stepImage(step: unknown): string {
  return isMap(step) ? (getString(step, ["image"]) ?? "") : "";
}

function addSetter(items: readonly KrmResource[], kptfile: KrmResource, projectId: string): void {
  const mutators = getNode(kptfile, ["pipeline", "mutators"]);
  const steps = isSeq(mutators) ? mutators.items : [];
  const step = steps.find((s) => stepImage(s).includes("apply-setters"));
  if (isMap(step)) {
    const configMap = getMap(step, ["configMap"]);
    const configPath = getString(step, ["configPath"]);
    if (configMap) {
      if ((getString(configMap, [SETTER]) ?? "") === "") setMapString(configMap, SETTER, projectId);
      return;
    }
    if (configPath) {
      const setters = items.find((doc) => fileOf(doc)?.path === configPath);
      if (!setters) {
        throw new ProjectIdError(
          `error updating Kptfile: failed to find setter file: file ${configPath} doesn't exist, please ensure the file specified in "configPath" exists and retry`,
        );
      }
      const data = ensureMap(setters, ["data"]);
      if (data && (getString(data, [SETTER]) ?? "") === "") setMapString(data, SETTER, projectId);
      return;
    }
    throw new ProjectIdError(
      "error updating Kptfile: unable to find `ConfigMap` or `configPath` as the `functionConfig` for apply-setters",
    );
  }
  const pipeline = ensureMap(kptfile, ["pipeline"]);
  if (!pipeline) return;
  const existing: unknown = pipeline.get("mutators", true);
  let seq: YAMLSeq;
  if (isSeq(existing)) {
    seq = existing;
  } else {
    seq = new YAMLSeq();
    pipeline.set("mutators", seq);
  }
  const fn = new YAMLMap();
  fn.set("image", DEFAULT_APPLY_SETTERS);
  const config = new YAMLMap();
  config.set(SETTER, projectId);
  fn.set("configMap", config);
  seq.items.push(fn);
}

/** The builtin `set-project-id`. */
export const setProjectId: BuiltinFunction = {
  name: "set-project-id",
  catalogVersion: "v0.2.0",
  run(input) {
    const parsed = input.functionConfig
      ? configMapData(input.functionConfig)
      : { data: new Map<string, string>() };
    const projectId = "error" in parsed ? "" : (parsed.data.get(SETTER) ?? "");
    try {
      const kptfiles = input.items.filter((doc) => getString(doc, ["kind"]) === "Kptfile");
      if (kptfiles.length === 0) {
        throw new ProjectIdError(
          "failed to find Kptfile: unable to find Kptfile, please include --include-meta-resources flag if a Kptfile is present",
        );
      }
      for (const kptfile of kptfiles) addSetter(input.items, kptfile, projectId);
    } catch (err) {
      if (!(err instanceof ProjectIdError)) throw err;
      return {
        items: input.items,
        results: [],
        exitCode: 1,
        stderr: `failed to set project-id setter: ${err.message}`,
      };
    }
    for (const doc of input.items) {
      const m = KCC_API_VERSION.exec(getString(doc, ["apiVersion"]) ?? "");
      if (!m || m[1] === "core") continue;
      const annotations = ensureMap(doc, ["metadata", "annotations"]);
      if (annotations && !annotations.has(ANNOTATION)) setMapString(annotations, ANNOTATION, projectId);
    }
    return { items: input.items, results: [] };
  },
};
