/**
 * kpt's `selectors` / `exclude` of a pipeline step (`fnruntime.SelectInput`): a resource is selected
 * when it matches any selector (all resources when there is none) and no exclusion; a selector
 * matches when every field it sets matches (labels and annotations: every given pair present).
 */
import type { Document } from "yaml";
import { toPlain } from "../kptfile/read.js";
import type { Selector } from "../kptfile/schema.js";
import { pathOf } from "../krm/annotations.js";
import { compileRe2, type Re2 } from "../krm/re2.js";

interface ResourceMeta {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
}

function subsetOf(
  wanted: Record<string, string> | undefined,
  actual: Record<string, string> | undefined,
): boolean {
  if (!wanted) return true;
  return Object.entries(wanted).every(([k, v]) => actual?.[k] === v);
}

/**
 * The compiled `resourceFileRegexp` (Go's regexp, as kpt: RE2 syntax, linear time).
 * @throws Error naming the pattern when it does not compile.
 */
function fileRegexp(pattern: string): Re2 {
  try {
    return compileRe2(pattern);
  } catch (err) {
    throw new Error(`invalid resourceFileRegexp ${JSON.stringify(pattern)}: ${(err as Error).message}`);
  }
}

/** Whether one resource matches one selector. */
export function matchesSelector(doc: Document, selector: Selector): boolean {
  const r = (toPlain(doc.contents) ?? {}) as ResourceMeta;
  if (selector.apiVersion && r.apiVersion !== selector.apiVersion) return false;
  if (selector.kind && r.kind !== selector.kind) return false;
  if (selector.name && r.metadata?.name !== selector.name) return false;
  if (selector.namespace && r.metadata?.namespace !== selector.namespace) return false;
  if (!subsetOf(selector.labels, r.metadata?.labels)) return false;
  if (!subsetOf(selector.annotations, r.metadata?.annotations)) return false;
  if (
    selector.resourceFileRegexp !== undefined &&
    !fileRegexp(selector.resourceFileRegexp).test(pathOf(doc) ?? "")
  )
    return false;
  return true;
}

/** Whether a step with these selectors / exclusions runs on the resource. */
export function isSelected(doc: Document, step: { selectors?: Selector[]; exclude?: Selector[] }): boolean {
  const selectors = step.selectors ?? [];
  const exclude = step.exclude ?? [];
  const selected = selectors.length === 0 || selectors.some((s) => matchesSelector(doc, s));
  return selected && !exclude.some((s) => matchesSelector(doc, s));
}
