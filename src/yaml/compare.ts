/**
 * Node-level helpers of our YAML layer that need no text: structural equality (what a function
 * handed back is what it was given), alias expansion (a ResourceList's items become separate
 * documents) and plain values (yaml.v3's `Decode` into an interface{}).
 */
import { Kind, Style, type YNode } from "./node.js";
import { resolvePlain } from "./resolve.js";
import { YamlError } from "./scanner.js";

/**
 * Whether two nodes hold the same content, styles, tags, anchors and comments (source positions
 * aside). Aliases are equal when they name the same anchor.
 */
export function sameNode(a: YNode, b: YNode): boolean {
  if (a === b) return true;
  if (
    a.kind !== b.kind ||
    a.style !== b.style ||
    a.tag !== b.tag ||
    a.value !== b.value ||
    a.anchor !== b.anchor ||
    a.headComment !== b.headComment ||
    a.lineComment !== b.lineComment ||
    a.footComment !== b.footComment
  )
    return false;
  const x = a.content;
  const y = b.content;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (!sameNode(x[i], y[i])) return false;
  return true;
}

/**
 * Replaces every alias under `node` by a copy of its anchored node and drops the anchors (in place).
 * @throws YamlError when an alias sits inside the node it refers to, or when the copies would exceed
 * `limit` nodes (a "billion laughs" text).
 */
export function expandAliases(node: YNode, limit: number): void {
  let copied = 0;
  const inProgress = new Set<YNode>();
  const copy = (n: YNode): YNode => {
    if (++copied > limit) throw aliasError(`its aliases expand to more than ${limit} nodes`);
    if (n.kind === Kind.Alias) {
      const target = n.alias;
      if (!target) throw aliasError(`unknown anchor for alias *${n.value}`);
      if (inProgress.has(target)) throw aliasError(`alias *${n.value} is inside its anchor`);
      inProgress.add(target);
      const out = copy(target);
      inProgress.delete(target);
      // The alias's own comments stay where it was.
      if (n.lineComment !== "") out.lineComment = n.lineComment;
      return out;
    }
    const out = Object.assign(Object.create(Object.getPrototypeOf(n)) as YNode, n);
    out.anchor = "";
    out.content = n.content.length === 0 ? [] : n.content.map(copy);
    return out;
  };
  const walk = (n: YNode): void => {
    n.anchor = "";
    const c = n.content;
    for (let i = 0; i < c.length; i++) {
      if (c[i].kind === Kind.Alias) c[i] = copy(c[i]);
      else walk(c[i]);
    }
  };
  if (hasAlias(node)) walk(node);
  else dropAnchors(node);
}

function hasAlias(n: YNode): boolean {
  if (n.kind === Kind.Alias) return true;
  for (const c of n.content) if (hasAlias(c)) return true;
  return false;
}

function dropAnchors(n: YNode): void {
  n.anchor = "";
  for (const c of n.content) dropAnchors(c);
}

function aliasError(problem: string): YamlError {
  return new YamlError(problem, { index: 0, line: 0, column: 0 }, "", 0);
}

/** A node's plain value: mappings as objects (the last of repeated keys wins), scalars resolved. */
export function plainValue(n: YNode): unknown {
  switch (n.kind) {
    case Kind.Document:
      return n.content[0] ? plainValue(n.content[0]) : null;
    case Kind.Mapping: {
      const out: Record<string, unknown> = {};
      for (let i = 0; i + 1 < n.content.length; i += 2)
        out[String(plainValue(n.content[i]))] = plainValue(n.content[i + 1]);
      return out;
    }
    case Kind.Sequence:
      return n.content.map(plainValue);
    case Kind.Alias:
      return n.alias ? plainValue(n.alias) : null;
    default:
      return scalarValue(n);
  }
}

function scalarValue(n: YNode): unknown {
  const quoted = (n.style & (Style.DoubleQuoted | Style.SingleQuoted | Style.Literal | Style.Folded)) !== 0;
  const tag = quoted || n.style & Style.Tagged ? n.tag : resolvePlain(n.value);
  switch (tag) {
    case "!!null":
      return null;
    case "!!bool":
      return /^(?:true|True|TRUE)$/.test(n.value);
    case "!!int":
    case "!!float": {
      const v = Number(n.value.replace(/_/g, ""));
      return Number.isNaN(v) ? n.value : v;
    }
    default:
      return n.value;
  }
}
