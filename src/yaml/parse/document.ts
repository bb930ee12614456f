/**
 * The stream and its documents (go-yaml v3's `yaml_parser_parse_stream_start`,
 * `yaml_parser_parse_document_start`, `yaml_parser_process_directives`,
 * `yaml_parser_parse_document_content`, `yaml_parser_parse_document_end`).
 */
import { T, type Token } from "../scanner.js";
import { E, type Event, emptyScalar, ev, P } from "./events.js";
import { node } from "./node.js";
import type { ParseState } from "./state.js";

/** `yaml_parser_parse_stream_start`. */
export function streamStart(p: ParseState): Event {
  const t = p.peek();
  p.state = P.ImplicitDocumentStart;
  const e = ev(E.StreamStart, t.start, t.end);
  p.s.skipToken();
  return e;
}

/**
 * The head comment's part above its last blank line, which heads the document; the rest stays
 * pending for the document's first node.
 */
function splitDocumentHead(p: ParseState): string {
  const hc = p.headComment;
  for (let i = hc.length - 1; i > 0; i--) {
    if (hc.charCodeAt(i) !== 10) continue;
    if (i === hc.length - 1) {
      p.headComment = hc.slice(i + 1);
      return hc.slice(0, i);
    }
    if (hc.charCodeAt(i - 1) === 10) {
      p.headComment = hc.slice(i + 1);
      return hc.slice(0, i - 1);
    }
  }
  return "";
}

/** A document without `---` (implicit), with its head comment. */
function implicitDocumentStart(p: ParseState, t: Token): Event {
  processDirectives(p);
  p.states.push(P.DocumentEnd);
  p.state = P.BlockNode;
  const head = p.headComment.length > 0 ? splitDocumentHead(p) : "";
  const e = ev(E.DocumentStart, t.start, t.end);
  e.head = head;
  e.implicit = true;
  return e;
}

/**
 * The next document's start, implicit or after directives and `---`; the stream's end after the
 * last (`yaml_parser_parse_document_start`). @throws YamlError on directives without `---`.
 */
export function documentStart(p: ParseState, implicit: boolean): Event {
  let t = p.peek();
  if (!implicit) {
    while (t.type === T.DocumentEnd) {
      p.s.skipToken();
      t = p.peek();
    }
  }
  if (
    implicit &&
    t.type !== T.VersionDirective &&
    t.type !== T.TagDirective &&
    t.type !== T.DocumentStart &&
    t.type !== T.StreamEnd
  ) {
    return implicitDocumentStart(p, t);
  }
  if (t.type !== T.StreamEnd) {
    const start = t.start;
    processDirectives(p);
    t = p.peek();
    if (t.type !== T.DocumentStart) p.fail("", undefined, "did not find expected <document start>", t.start);
    p.states.push(P.DocumentEnd);
    p.state = P.DocumentContent;
    const e = ev(E.DocumentStart, start, t.end);
    p.s.skipToken();
    return e;
  }
  p.state = P.End;
  const e = ev(E.StreamEnd, t.start, t.end);
  p.s.skipToken();
  p.done = true;
  return e;
}

/** `%YAML` and `%TAG` directives (`yaml_parser_process_directives`). @throws YamlError on a duplicate %TAG. */
function processDirectives(p: ParseState): void {
  p.tagDirectives = [];
  let t = p.peek();
  while (t.type === T.VersionDirective || t.type === T.TagDirective) {
    if (t.type === T.TagDirective) {
      const handle = t.value;
      if (p.tagDirectives.some(([h]) => h === handle))
        p.fail("", undefined, "found duplicate %TAG directive", t.start);
      p.tagDirectives.push([t.value, t.suffix]);
    }
    p.s.skipToken();
    t = p.peek();
  }
}

/** An explicit document's content, empty when it ends at once (`yaml_parser_parse_document_content`). */
export function documentContent(p: ParseState): Event {
  const t = p.peek();
  if (
    t.type === T.VersionDirective ||
    t.type === T.TagDirective ||
    t.type === T.DocumentStart ||
    t.type === T.DocumentEnd ||
    t.type === T.StreamEnd
  ) {
    p.pop();
    return emptyScalar(t.start);
  }
  return node(p, true, false);
}

/** A document's end, `...` or implicit, with its foot comment (`yaml_parser_parse_document_end`). */
export function documentEnd(p: ParseState): Event {
  const t = p.peek();
  const start = t.start;
  let end = t.start;
  let implicit = true;
  if (t.type === T.DocumentEnd) {
    end = t.end;
    p.s.skipToken();
    implicit = false;
  }
  p.tagDirectives = [];
  p.state = P.DocumentStart;
  const e = ev(E.DocumentEnd, start, end);
  e.implicit = implicit;
  p.setEventComments(e);
  if (e.head.length > 0 && e.foot.length === 0) {
    e.foot = e.head;
    e.head = "";
  }
  return e;
}
