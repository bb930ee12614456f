/** kyaml's scalar visitor (`walk/scalar.go`) of the 3-way merge. */
import {
  changed,
  isMissingOrNull,
  isTaggedNull,
  printed,
  record,
  type Sources,
  type Src,
  scalarText,
  take,
  type Walk,
} from "./nodes.js";

/**
 * kyaml's scalar visitor. Values are compared as yaml.v3 prints them, comments included, so an
 * upstream comment change reaches the local copy when the local copy kept the original.
 */
export function visitScalar(sources: Sources, w: Walk | undefined): Src {
  const [dest, origin, updated] = sources;
  if (isTaggedNull(updated) || isTaggedNull(dest)) return undefined;
  if (isMissingOrNull(updated) !== isMissingOrNull(origin)) {
    if (w && isMissingOrNull(updated) && dest !== undefined && changed(dest, origin))
      record(w, "removed", dest, undefined, origin);
    return take(updated);
  }
  if (isMissingOrNull(updated) && isMissingOrNull(origin)) return dest;
  const u = printed(updated);
  const o = printed(origin);
  const d = dest === undefined ? "" : printed(dest);
  if ((d === "" || d === o) && o !== u) return take(updated);
  if (scalarText(updated) !== scalarText(origin)) {
    if (w && dest !== undefined && changed(dest, origin) && changed(dest, updated)) {
      record(w, "changed", dest, updated, origin);
    }
    return take(updated);
  }
  return dest;
}
