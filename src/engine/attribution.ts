/**
 * kpt's usage attribution on Config Connector resources (`attribution.Attributor` in kpt 1.0, run by
 * `kpt fn render` with the command group `fn` once the pipelines have run): every resource whose
 * `apiVersion` contains `.cnrm.` and whose `metadata` is not empty gets `krm-fn` recorded in its
 * `cnrm.cloud.google.com/blueprint` annotation. kpt 1.0 writes `krm-`; kpt before 1.0.0-beta.59
 * wrote `kpt-` (the catalog's older recorded outputs show `kpt-fn`). Setting the environment
 * variable `KRM_DISABLE_ATTRIBUTION` turns it off in kpt; the CLI honours it (see `RenderOptions`).
 */
import {
  annotationsNode,
  fieldValue,
  firstValue,
  rootMap,
  setNodeAnnotations,
} from "../krm/annotations-node.js";
import { Kind, Style, type YNode } from "../yaml/node.js";
import { documentScalarValue } from "../yaml/to-document.js";

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
 * Records `group` in a resource's (document node's) blueprint annotation when it is a Config
 * Connector resource with metadata. An existing annotation keeps its place, quoting and comment (its
 * value now a string); a new one is added last, single-quoted (kyaml's SetAnnotation). Returns whether
 * the resource was changed.
 */
export function attribute(doc: YNode, group = "fn"): boolean {
  const apiVersion = fieldValue(doc, ["apiVersion"]);
  if (typeof apiVersion !== "string" || !apiVersion.includes(".cnrm.")) return false;
  const meta = firstValue(rootMap(doc), "metadata");
  if (meta?.kind !== Kind.Mapping || meta.content.length === 0) return false;
  const existing = firstValue(annotationsNode(doc), CNRM_BLUEPRINT_ANNOTATION);
  const value = existing?.kind === Kind.Scalar ? documentScalarValue(existing) : undefined;
  const current = value !== null && value !== undefined ? String(value) : "";
  const next = recordAction(current, group);
  if (existing?.kind === Kind.Scalar) {
    if (value === next) return false;
    existing.value = next;
    if ((existing.style & Style.Tagged) === 0 || existing.tag === "!!str") {
      existing.tag = "!!str";
      existing.style &= ~Style.Tagged;
    }
    return true;
  }
  setNodeAnnotations(doc, [[CNRM_BLUEPRINT_ANNOTATION, next]]);
  return true;
}
