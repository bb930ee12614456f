/**
 * Gatekeeper's cached state as the catalog's function builds it: every input resource is added to
 * `data.inventory` (`cluster[apiVersion][kind][name]`, or `namespace[ns][apiVersion][kind][name]`
 * for a resource with `metadata.namespace`), and audit then reviews every inventory object. A later
 * resource with the same place replaces an earlier one, as OPA's store does.
 */
import type { KrmResource } from "../../../krm/resource-list.js";
import { toJs } from "../yaml-nodes.js";
import { GatekeeperError } from "./errors.js";

/** `input.review` of an audit: the object, its group/version/kind, name and (when namespaced) namespace. */
export interface Review {
  kind: { group: string; version: string; kind: string };
  name: string;
  namespace?: string;
  object: Record<string, unknown>;
}

/** One reviewed resource: the review and the input resource it came from (for results). */
export interface InventoryEntry {
  review: Review;
  resource: KrmResource;
}

/** `data.inventory` and the entries to review, in inventory order. */
export interface Inventory {
  data: { cluster?: Record<string, unknown>; namespace?: Record<string, unknown> };
  entries: InventoryEntry[];
  /** The `v1` Namespace object of that name, or undefined. */
  namespace(name: string): Record<string, unknown> | undefined;
}

/** Kubernetes' `schema.ParseGroupVersion`: `v1` is the core group; more than one `/` is no version. */
function groupVersion(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: parts[0] };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  return { group: "", version: "" };
}

function stringField(object: Record<string, unknown>, ...path: string[]): string {
  let cur: unknown = object;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return "";
    cur = (cur as Record<string, unknown>)[key];
  }
  return typeof cur === "string" ? cur : "";
}

function slot(root: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  let cur = root;
  for (const key of keys) {
    const next = cur[key];
    if (next !== null && typeof next === "object") cur = next as Record<string, unknown>;
    else {
      const created: Record<string, unknown> = {};
      cur[key] = created;
      cur = created;
    }
  }
  return cur;
}

/**
 * Builds the inventory from the input resources.
 * @throws GatekeeperError worded as the catalog's (`adding data of GVK ...`) for a resource without
 *   version or kind.
 */
export function buildInventory(resources: readonly KrmResource[]): Inventory {
  const data: Inventory["data"] = {};
  const byPlace = new Map<string, InventoryEntry>();
  for (const resource of resources) {
    const raw = toJs(resource.contents);
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) continue;
    const object = raw as Record<string, unknown>;
    const apiVersion = stringField(object, "apiVersion");
    const kind = stringField(object, "kind");
    const name = stringField(object, "metadata", "name");
    const namespace = stringField(object, "metadata", "namespace");
    const gv = groupVersion(apiVersion);
    const problem = gv.version === "" ? "version" : kind === "" ? "kind" : undefined;
    if (problem) {
      const gvk = `${gv.group}/${gv.version}, Kind=${kind}`;
      throw new GatekeeperError(
        `adding data of GVK ${JSON.stringify(gvk)}: admission.k8s.gatekeeper.sh: resource ${name} has no ${problem}\n`,
      );
    }
    // An object without a name has no place of its own in the store; Gatekeeper never reviews it as one.
    if (name === "") continue;
    const gvText = gv.group === "" ? gv.version : `${gv.group}/${gv.version}`;
    const place = namespace === "" ? ["cluster", gvText, kind] : ["namespace", namespace, gvText, kind];
    slot(data as Record<string, unknown>, place)[name] = object;
    const review: Review = { kind: { group: gv.group, version: gv.version, kind }, name, object };
    if (namespace !== "") review.namespace = namespace;
    byPlace.set(JSON.stringify([...place, name]), { review, resource });
  }
  const namespaces = (data.cluster?.v1 as Record<string, Record<string, unknown>> | undefined)?.Namespace;
  return {
    data,
    entries: [...byPlace.values()],
    namespace: (name) => {
      const ns = namespaces?.[name];
      return ns !== null && typeof ns === "object" ? (ns as Record<string, unknown>) : undefined;
    },
  };
}
