/**
 * kpt's 3-way merge of one KRM resource (kyaml's `merge3` walker and visitor), over `yaml` nodes:
 * the local (dest) resource is merged in place with the original and the updated upstream versions.
 * The walk dispatches by node kind, as kyaml's `walk/` does:
 *
 * - scalars (`scalar.ts`): upstream's value wins when it changed; a local change is kept when upstream
 *   did not change; a field removed upstream is removed; a field set to null on either side is removed;
 * - maps (`map.ts`): merged field by field; fields new to the local resource are appended in key order;
 * - lists with merge keys (`associative-list.ts`; keys from the schema, or `name` when inferring):
 *   merged element by element, elements new upstream appended; other lists
 *   (`non-associative-list.ts`): upstream's list when it changed, else local's;
 * - comments travel with the values and keys they belong to (a changed upstream comment wins).
 *
 * Where both sides changed the same value, upstream's wins and a {@link MergeOverride} is recorded.
 */
import { isMap, isScalar, isSeq } from "yaml";
import { isAssociative, walkAssociativeList } from "./associative-list.js";
import { walkMap } from "./map.js";
import {
  fieldName,
  hasFieldMeta,
  isMissingOrNull,
  kindName,
  MergeError,
  type Sources,
  type Src,
  scalarText,
  type Walk,
  type WalkOptions,
  type YNode,
} from "./nodes.js";
import { visitList } from "./non-associative-list.js";
import { visitScalar } from "./scalar.js";
import { type MergeSchemaNode, OPAQUE_SCHEMA } from "./schema.js";

/**
 * Merges `dest` with `origin` and `updated` (any may be missing) and returns the merged node, or
 * undefined when the merge clears it. `dest` is changed in place. Throws {@link MergeError}.
 */
export function merge3(sources: Sources, opts: WalkOptions, schema?: MergeSchemaNode): Src {
  return walk({ opts, sources: [...sources] as Sources, schema, path: [], visit: walk });
}

function kindOf(sources: Sources): "map" | "seq" | "scalar" | undefined {
  for (const s of sources) {
    if (isMissingOrNull(s)) continue;
    if (isMap(s)) return "map";
    if (isSeq(s)) return "seq";
    return "scalar";
  }
  return undefined;
}

function walk(w: Walk): Src {
  w.schema = schemaOf(w);
  const kind = kindOf(w.sources);
  const check = (ok: (n: unknown) => boolean, what: string) => {
    for (const s of w.sources) {
      if (!isMissingOrNull(s) && !ok(s))
        throw new MergeError(
          `field ${fieldName(w.path)} is a ${what} in one version and a ${kindName(s)} in another`,
        );
    }
  };
  switch (kind) {
    case "map":
      check(isMap, "map");
      return walkMap(w);
    case "seq":
      check(isSeq, "list");
      return isAssociative(w) ? walkAssociativeList(w) : visitList(w);
    case "scalar":
      check(isScalar, "value");
      return visitScalar(w.sources, w);
    default:
      return walkMap(w);
  }
}

/** A field's schema: field metadata in a comment, else the parent's, else the resource type's. */
function schemaOf(w: Walk): MergeSchemaNode | undefined {
  for (const s of w.sources) {
    if (isMissingOrNull(s)) continue;
    if (hasFieldMeta(s as YNode)) return OPAQUE_SCHEMA;
  }
  if (w.schema) return w.schema;
  for (const s of w.sources) {
    if (!isMap(s)) continue;
    const apiVersion = scalarText(s.get("apiVersion", true));
    const kind = scalarText(s.get("kind", true));
    if (!apiVersion || !kind) continue;
    const found = w.opts.schemas.forType(apiVersion, kind);
    if (found) return found;
  }
  return undefined;
}
