/**
 * kpt's usage attribution on Config Connector resources (`attribution.Attributor` in kpt 1.0, run by
 * `kpt fn render` with the command group `fn` once the pipelines have run): every resource whose
 * `apiVersion` contains `.cnrm.` and whose `metadata` is not empty gets `krm-fn` recorded in its
 * `cnrm.cloud.google.com/blueprint` annotation. kpt 1.0 writes `krm-`; kpt before 1.0.0-beta.59
 * wrote `kpt-` (the catalog's older recorded outputs show `kpt-fn`). Setting the environment
 * variable `KRM_DISABLE_ATTRIBUTION` turns it off in kpt; the CLI honours it (see `RenderOptions`).
 */
import { type Document, isMap, isScalar } from "yaml";
import { annotationsOf, setAnnotations } from "../krm/annotations.js";

/** The annotation kpt records its use in (Config Connector's blueprint metrics annotation). */
export const CNRM_BLUEPRINT_ANNOTATION = "cnrm.cloud.google.com/blueprint";

/**
 * kpt 1.0's `recordAction`: the annotation value after a `group` command (`pkg`, `fn`, `live`) ran.
 * `""` -> `krm-fn`; a value without `krm-` gets `,krm-fn` appended; otherwise the `krm-…` parts are
 * rebuilt to hold the groups they had plus `group`, in the order pkg, fn, live.
 */
export function recordAction(current: string, group: string): string {
  if (current === "") return `krm-${group}`;
  if (!current.includes("krm-")) return `${current},krm-${group}`;
  return current
    .split(",")
    .map((part) => {
      if (!part.includes("krm")) return part;
      const groups = ["pkg", "fn", "live"].filter((g) => part.includes(g) || g === group);
      return ["krm", ...groups].join("-");
    })
    .join(",");
}

/**
 * Records `group` in a resource's blueprint annotation when it is a Config Connector resource with
 * metadata. An existing annotation keeps its place and quoting; a new one is added last,
 * single-quoted (kyaml's SetAnnotation). Returns whether the resource was changed.
 */
export function attribute(doc: Document, group = "fn"): boolean {
  const apiVersion = doc.getIn(["apiVersion"]);
  if (typeof apiVersion !== "string" || !apiVersion.includes(".cnrm.")) return false;
  const meta = doc.get("metadata", true);
  if (!isMap(meta) || meta.items.length === 0) return false;
  const existing = annotationsOf(doc)?.get(CNRM_BLUEPRINT_ANNOTATION, true);
  const current = isScalar(existing) && existing.value != null ? String(existing.value) : "";
  const next = recordAction(current, group);
  if (isScalar(existing)) {
    if (existing.value === next) return false;
    existing.value = next;
    return true;
  }
  setAnnotations(doc, [[CNRM_BLUEPRINT_ANNOTATION, next]]);
  return true;
}
