/**
 * A node: an alias, or properties (anchor, tag) and content — a scalar, the start of a collection,
 * or nothing (go-yaml v3's `yaml_parser_parse_node`).
 */
import { type Mark, SS, T, type Token } from "../scanner.js";
import { E, type Event, ev, P } from "./events.js";
import type { ParseState } from "./state.js";

/** A tag's full form: its handle resolved through the document's %TAG directives and `!`, `!!`. */
function resolveTagHandle(p: ParseState, tagToken: Token, start: Mark): string {
  const handle = tagToken.value;
  const suffix = tagToken.suffix;
  if (handle.length === 0) return suffix;
  for (const [h, prefix] of p.tagDirectives) if (h === handle) return prefix + suffix;
  if (handle === "!") return `!${suffix}`;
  if (handle === "!!") return `tag:yaml.org,2002:${suffix}`;
  return p.fail("while parsing a node", start, "found undefined tag handle", tagToken.start);
}

/** Consumes the head token; the next one. */
function nextToken(p: ParseState): Token {
  p.s.skipToken();
  return p.peek();
}

/**
 * Reads a node's anchor and tag, in either order, into `e` (its end, `anchor`, the resolved `tag`,
 * `implicit` when untagged); returns the token after them.
 */
function nodeProperties(p: ParseState, e: Event, first: Token): Token {
  let t = first;
  let tagToken: Token | undefined;
  if (t.type === T.Anchor) {
    e.anchor = t.value;
    e.end = t.end;
    t = nextToken(p);
    if (t.type === T.Tag) {
      tagToken = t;
      e.end = t.end;
      t = nextToken(p);
    }
  } else if (t.type === T.Tag) {
    tagToken = t;
    e.end = t.end;
    t = nextToken(p);
    if (t.type === T.Anchor) {
      e.anchor = t.value;
      e.end = t.end;
      t = nextToken(p);
    }
  }
  if (tagToken) e.tag = resolveTagHandle(p, tagToken, e.start);
  e.implicit = e.tag.length === 0;
  return t;
}

/** An alias event (`*name`). */
function alias(p: ParseState, t: Token): Event {
  p.pop();
  const e = ev(E.Alias, t.start, t.end);
  e.anchor = t.value;
  p.setEventComments(e);
  p.s.skipToken();
  return e;
}

/** A scalar event with the properties read into `e`. */
function scalar(p: ParseState, e: Event, t: Token): Event {
  e.type = E.Scalar;
  e.end = t.end;
  e.implicit = (e.tag.length === 0 && t.style === SS.Plain) || e.tag === "!";
  e.quotedImplicit = !e.implicit && e.tag.length === 0;
  p.pop();
  e.value = t.value;
  e.style = t.style;
  p.setEventComments(e);
  p.s.skipToken();
  return e;
}

/** A collection's start event (sequence or mapping, flow or block) with the properties in `e`. */
function collectionStart(p: ParseState, e: Event, t: Token, flow: boolean): Event {
  const seq = t.type === T.FlowSequenceStart || t.type === T.BlockSequenceStart;
  if (flow) p.state = seq ? P.FlowSequenceFirstEntry : P.FlowMappingFirstKey;
  else p.state = seq ? P.BlockSequenceFirstEntry : P.BlockMappingFirstKey;
  e.type = seq ? E.SequenceStart : E.MappingStart;
  e.end = t.end;
  if (flow) {
    e.flow = true;
    p.setEventComments(e);
  } else if (p.stemComment !== null) {
    e.head = p.stemComment;
    p.stemComment = null;
  }
  return e;
}

/**
 * A node in a block (`block`) or flow context; after a mapping key, a `- ` entry may start an
 * indentless sequence (`yaml_parser_parse_node`). @throws YamlError when no node is there.
 */
export function node(p: ParseState, block: boolean, indentlessSequence: boolean): Event {
  const first = p.peek();
  if (first.type === T.Alias) return alias(p, first);
  const e = ev(E.Scalar, first.start, first.start);
  const t = nodeProperties(p, e, first);
  if (indentlessSequence && t.type === T.BlockEntry) {
    p.state = P.IndentlessSequenceEntry;
    e.type = E.SequenceStart;
    e.end = t.end;
    return e;
  }
  if (t.type === T.Scalar) return scalar(p, e, t);
  if (t.type === T.FlowSequenceStart || t.type === T.FlowMappingStart) return collectionStart(p, e, t, true);
  if (block && (t.type === T.BlockSequenceStart || t.type === T.BlockMappingStart))
    return collectionStart(p, e, t, false);
  if (e.anchor.length > 0 || e.tag.length > 0) {
    p.pop();
    e.style = SS.Plain;
    return e;
  }
  return p.fail(
    block ? "while parsing a block node" : "while parsing a flow node",
    e.start,
    "did not find expected node content",
    t.start,
  );
}
