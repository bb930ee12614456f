/**
 * The node tree of our YAML layer, shaped like yaml.v3's `Node`: a kind, a style (bit set), a short
 * tag (`!!str`, `!!map`, `!Custom`), the scalar's text, anchor, alias target, children (a mapping
 * holds key, value, key, value...), head / line / foot comments (their text with `#`, lines joined
 * by "\n") and the 1-based line and column where the node starts (0 for nodes made in code). A
 * document's `value` is `---` when it began with a document marker.
 */

export enum Kind {
  Document = 1,
  Sequence = 2,
  Mapping = 4,
  Scalar = 8,
  Alias = 16,
}

export enum Style {
  Tagged = 1,
  DoubleQuoted = 2,
  SingleQuoted = 4,
  Literal = 8,
  Folded = 16,
  Flow = 32,
}

/**
 * The children of a scalar or alias made without any: one frozen empty array shared by all of
 * them (a package of 10,000 resources holds half a million scalars). Pushing onto it throws; a
 * node that becomes a collection is given an array of its own.
 */
const NO_CHILDREN = Object.freeze([]) as unknown as YNode[];

/**
 * One node (yaml.v3 `yaml.Node`). A scalar's or alias's `content` defaults to a shared frozen
 * empty array (assign a new array, never push, to give one children).
 */
export class YNode {
  kind: Kind;
  style = 0;
  tag: string;
  value: string;
  anchor = "";
  alias: YNode | null = null;
  content: YNode[];
  headComment = "";
  lineComment = "";
  footComment = "";
  line = 0;
  column = 0;

  constructor(
    kind: Kind,
    tag = "",
    value = "",
    content: YNode[] = kind === Kind.Scalar || kind === Kind.Alias ? NO_CHILDREN : [],
  ) {
    this.kind = kind;
    this.tag = tag;
    this.value = value;
    this.content = content;
  }
}

/** A plain scalar (the tag resolved from the text when not given). */
export function scalar(value: string, tag = "!!str", style = 0): YNode {
  const n = new YNode(Kind.Scalar, tag, value);
  n.style = style;
  return n;
}

/** The value under `key` in a mapping node, or undefined (the last one when a key repeats). */
export function mapGet(map: YNode, key: string): YNode | undefined {
  const c = map.content;
  for (let i = c.length - 2; i >= 0; i -= 2)
    if (c[i].kind === Kind.Scalar && c[i].value === key) return c[i + 1];
  return undefined;
}

/** A deep copy of a node (aliases keep pointing at the original targets). */
export function cloneNode(n: YNode): YNode {
  const out = new YNode(
    n.kind,
    n.tag,
    n.value,
    n.content.length === 0 ? undefined : n.content.map(cloneNode),
  );
  out.style = n.style;
  out.anchor = n.anchor;
  out.alias = n.alias;
  out.headComment = n.headComment;
  out.lineComment = n.lineComment;
  out.footComment = n.footComment;
  out.line = n.line;
  out.column = n.column;
  return out;
}
