/**
 * kustomize / kyaml field paths as replacements use them: `SmarterPathSplitter` (split on `.`, keep
 * `[k=v]` list selectors, unwrap `[a.b.c]` map keys) and `PathMatcher` (map fields, `[k=v]` list items,
 * `*` every item, numeric indexes, optional creation of missing map fields).
 */
import { isMap, isSeq, Scalar, YAMLMap, YAMLSeq } from "yaml";
import { isNullish, scalarString } from "./yaml-nodes.js";

/** Splits `a.b.[name=x.y].c.[d.e].f\.g` into `a`, `b`, `[name=x.y]`, `c`, `d.e`, `f.g`. */
export function smarterPathSplit(path: string): string[] {
  const out: string[] = [];
  let cur = "";
  let depth = 0;
  const chars = [...path];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    // kustomize's PathSplitter: `\.` is a dot inside a field name (`data.init\.sql`).
    if (ch === "\\" && chars[i + 1] === "." && depth === 0) {
      cur += ".";
      i++;
      continue;
    }
    if (ch === "[") depth += 1;
    if (ch === "]") depth = Math.max(0, depth - 1);
    if (ch === "." && depth === 0) {
      out.push(cur);
      cur = "";
    } else {
      cur += ch;
    }
  }
  out.push(cur);
  return out.map((seg) =>
    seg.startsWith("[") && seg.endsWith("]") && !seg.includes("=") ? seg.slice(1, -1) : seg,
  );
}

/** A field reached by a path: read it, or replace it in its parent. */
export interface FieldRef {
  node: unknown;
  replace(value: unknown): void;
}

function listSelector(seg: string): { key: string; value: string } | undefined {
  if (!seg.startsWith("[") || !seg.endsWith("]")) return undefined;
  const eq = seg.indexOf("=");
  if (eq < 0) return undefined;
  return { key: seg.slice(1, eq), value: seg.slice(eq + 1, -1) };
}

function itemMatches(item: unknown, sel: { key: string; value: string }): boolean {
  if (sel.key === "") return scalarString(item) === sel.value;
  return isMap(item) && scalarString(item.get(sel.key, true)) === sel.value;
}

/**
 * All fields matching `segments` below `root`. With `create`, missing map fields on the way become
 * maps, a `[k=v]` no list item matches becomes a new `{k: v}` item, and a missing last field becomes
 * an empty scalar (kyaml `PathMatcher{Create: kind}`).
 */
export function matchPath(
  root: unknown,
  segments: readonly string[],
  create: "scalar" | "map" | "seq" | false,
): FieldRef[] {
  const out: FieldRef[] = [];
  const walk = (node: unknown, i: number, replace: (v: unknown) => void): void => {
    if (i === segments.length) {
      out.push({ node, replace });
      return;
    }
    const seg = segments[i];
    const last = i === segments.length - 1;
    if (isSeq(node)) {
      const sel = listSelector(seg);
      let matched = false;
      node.items.forEach((item, idx) => {
        const ok = seg === "*" || (sel ? itemMatches(item, sel) : seg === String(idx));
        if (ok) {
          matched = true;
          walk(item, i + 1, (v) => node.set(idx, v));
        }
      });
      // kyaml's PathMatcher with Create appends a `{key: value}` element no item matched.
      if (!matched && create && sel && sel.key !== "") {
        const item = new YAMLMap();
        item.set(sel.key, sel.value);
        node.add(item);
        walk(item, i + 1, (v) => node.set(node.items.length - 1, v));
      }
      return;
    }
    if (!isMap(node)) return;
    if (seg === "*") {
      for (const pair of node.items) {
        walk(pair.value, i + 1, (v) => {
          pair.value = v;
        });
      }
      return;
    }
    if (listSelector(seg)) return;
    let child: unknown = node.get(seg, true);
    if (isNullish(child) && !node.has(seg)) {
      if (!create) return;
      const next = segments[i + 1];
      if (last) child = create === "map" ? new YAMLMap() : create === "seq" ? new YAMLSeq() : new Scalar("");
      else child = next === "*" || listSelector(next) || /^\d+$/.test(next) ? new YAMLSeq() : new YAMLMap();
      node.set(seg, child);
    }
    walk(child, i + 1, (v) => node.set(seg, v));
  };
  walk(root, 0, () => undefined);
  return out;
}

/** kyaml `Lookup`: the single field at a path (map keys, `[k=v]`, list indexes), or undefined. */
export function lookupPath(root: unknown, segments: readonly string[]): unknown {
  let cur = root;
  for (const seg of segments) {
    const sel = listSelector(seg);
    if (isSeq(cur)) {
      // kyaml's PathGetter: a number is a list index.
      if (/^\d+$/.test(seg)) cur = cur.items[Number(seg)];
      else if (!sel) return undefined;
      else cur = cur.items.find((item) => itemMatches(item, sel));
    } else if (isMap(cur) && !sel) {
      cur = cur.get(seg, true);
    } else {
      return undefined;
    }
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** kyaml `IsNilOrEmpty`. */
export function isNilOrEmpty(node: unknown): boolean {
  if (isNullish(node)) return true;
  if (isMap(node) || isSeq(node)) return node.items.length === 0;
  return false;
}
