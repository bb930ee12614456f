/**
 * kpt's `selectors` / `exclude` of a pipeline step (`fnruntime.SelectInput`): a resource is selected
 * when it matches any selector (all resources when there is none) and no exclusion; a selector
 * matches when every field it sets matches (labels and annotations: every given pair present).
 */
import type { Selector } from "../kptfile/schema.js";
import { nodePathOf } from "../krm/annotations-node.js";
import { compileRe2, type Re2 } from "../krm/re2.js";
import { Kind, type YNode } from "../yaml/node.js";
import { documentScalarValue } from "../yaml/to-document.js";

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

/**
 * A node as `toPlain` gives the Document's (a mapping an object, the last of a repeated key winning
 * unless it reads as nothing; a scalar its text, null as nothing; an alias nothing), for the keys
 * in `only` when given.
 */
function plainOf(node: YNode | undefined, only?: ReadonlySet<string>): unknown {
  if (!node) return undefined;
  if (node.kind === Kind.Mapping) {
    const out: Record<string, unknown> = {};
    const c = node.content;
    for (let i = 0; i + 1 < c.length; i += 2) {
      const k = c[i];
      const key = k.kind === Kind.Scalar ? String(documentScalarValue(k)) : String(plainOf(k));
      if (only && !only.has(key)) continue;
      const value = plainOf(c[i + 1]);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  if (node.kind === Kind.Sequence) return node.content.map((n) => plainOf(n));
  if (node.kind === Kind.Scalar) return documentScalarValue(node) === null ? undefined : node.value;
  return undefined;
}

const SELECTED_FIELDS: ReadonlySet<string> = new Set(["apiVersion", "kind", "metadata"]);

/** Whether one resource (a document node) matches one selector. */
export function matchesSelector(doc: YNode, selector: Selector): boolean {
  const r = (plainOf(doc.content[0], SELECTED_FIELDS) ?? {}) as ResourceMeta;
  if (selector.apiVersion && r.apiVersion !== selector.apiVersion) return false;
  if (selector.kind && r.kind !== selector.kind) return false;
  if (selector.name && r.metadata?.name !== selector.name) return false;
  if (selector.namespace && r.metadata?.namespace !== selector.namespace) return false;
  if (!subsetOf(selector.labels, r.metadata?.labels)) return false;
  if (!subsetOf(selector.annotations, r.metadata?.annotations)) return false;
  if (
    selector.resourceFileRegexp !== undefined &&
    !fileRegexp(selector.resourceFileRegexp).test(nodePathOf(doc) ?? "")
  )
    return false;
  return true;
}

/** Whether a step with these selectors / exclusions runs on the resource. */
export function isSelected(doc: YNode, step: { selectors?: Selector[]; exclude?: Selector[] }): boolean {
  const selectors = step.selectors ?? [];
  const exclude = step.exclude ?? [];
  const selected = selectors.length === 0 || selectors.some((s) => matchesSelector(doc, s));
  return selected && !exclude.some((s) => matchesSelector(doc, s));
}
