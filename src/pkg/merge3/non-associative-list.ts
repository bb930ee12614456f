/** kyaml's visitor of lists without merge keys (`walk/nonassociative_sequence.go`) of the 3-way merge. */
import {
  changed,
  isMissingOrNull,
  isTaggedNull,
  printed,
  record,
  type Src,
  take,
  valueText,
  type Walk,
} from "./nodes.js";

/** kyaml's visitor of lists without merge keys: upstream's list when it changed, else local's. */
export function visitList(w: Walk): Src {
  const [dest, origin, updated] = w.sources;
  if (isTaggedNull(updated) || isTaggedNull(dest)) return undefined;
  if (isMissingOrNull(updated) !== isMissingOrNull(origin)) {
    if (isMissingOrNull(updated) && dest !== undefined && changed(dest, origin))
      record(w, "removed", dest, undefined, origin);
    return take(updated);
  }
  if (isMissingOrNull(updated) && isMissingOrNull(origin)) return dest;
  if (printed(updated) !== printed(origin)) {
    if (dest !== undefined && changed(dest, origin) && valueText(dest) !== valueText(updated)) {
      record(w, "changed", dest, updated, origin);
    }
    return take(updated);
  }
  return dest;
}
