/**
 * kustomize field specs (`types.FieldSpec`: group/version/kind plus a slash-separated `path`, `[]`
 * marking "every item of a list", and `create`), as used by set-annotations' `additionalAnnotationFields`
 * and set-image's `additionalImageFields`.
 */
import { isMap, isSeq, YAMLMap } from "yaml";
import type { KrmResource } from "../../krm/resource-list.js";
import { getString, isNullish } from "./yaml-nodes.js";

/** One field spec. Empty group/version/kind match any resource. */
export interface FieldSpec {
  group?: string;
  version?: string;
  kind?: string;
  path: string;
  create?: boolean;
}

/** Parses a list of field specs from decoded YAML; invalid entries are skipped. */
export function parseFieldSpecs(value: unknown): FieldSpec[] {
  if (!Array.isArray(value)) return [];
  const specs: FieldSpec[] = [];
  for (const v of value) {
    if (!v || typeof v !== "object") continue;
    const o = v as Record<string, unknown>;
    if (typeof o.path !== "string") continue;
    specs.push({
      group: typeof o.group === "string" ? o.group : undefined,
      version: typeof o.version === "string" ? o.version : undefined,
      kind: typeof o.kind === "string" ? o.kind : undefined,
      path: o.path,
      create: o.create === true,
    });
  }
  return specs;
}

/** Whether a spec's group/version/kind select the resource. */
export function specSelects(spec: FieldSpec, doc: KrmResource): boolean {
  const apiVersion = getString(doc, ["apiVersion"]) ?? "";
  const slash = apiVersion.indexOf("/");
  const group = slash < 0 ? "" : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  if (spec.group && spec.group !== group) return false;
  if (spec.version && spec.version !== version) return false;
  if (spec.kind && spec.kind !== (getString(doc, ["kind"]) ?? "")) return false;
  return true;
}

/** A node reached by a field spec, with its dotted field path (e.g. `spec.template.metadata.annotations`). */
export interface SpecTarget {
  parent: YAMLMap;
  key: string;
  fieldPath: string;
}

/**
 * Walks `spec.path` in `doc` and calls `visit` with the parent map and key of every leaf reached.
 * With `create`, missing maps on the way are created (appended at the end of their parent); the
 * leaf itself is only passed, not created. A `[]` suffix iterates a list's items.
 */
export function walkFieldSpec(doc: KrmResource, spec: FieldSpec, visit: (target: SpecTarget) => void): void {
  const segments = spec.path.split("/").filter((s) => s !== "");
  if (segments.length === 0 || !isMap(doc.contents)) return;
  const step = (node: YAMLMap, i: number, trail: string[]): void => {
    let seg = segments[i];
    const isList = seg.endsWith("[]");
    if (isList) seg = seg.slice(0, -2);
    const last = i === segments.length - 1;
    if (last && !isList) {
      visit({ parent: node, key: seg, fieldPath: [...trail, seg].join(".") });
      return;
    }
    let child: unknown = node.get(seg, true);
    if (isList) {
      if (!isSeq(child)) return;
      for (const item of child.items) {
        if (isMap(item) && !last) step(item, i + 1, [...trail, seg]);
      }
      return;
    }
    if (isNullish(child)) {
      if (!spec.create) return;
      child = new YAMLMap();
      node.set(seg, child);
    }
    if (isMap(child)) step(child, i + 1, [...trail, seg]);
  };
  step(doc.contents, 0, []);
}
