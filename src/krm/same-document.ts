/**
 * Cheap change detection for documents the engine writes back: instead of serializing a document
 * twice (as read, as it is now) to learn whether a function changed it, the document is compared
 * with a fingerprint taken when it was read: a flat list of what serialization reads (node classes,
 * scalar values, styles, comments, item counts), pointing at the document's own strings, so it costs
 * far less memory than a copy. The answer is `same` only when all of it is equal (so the text would
 * be equal), `changed` only when a difference certainly changes the text (a different scalar value
 * of the same type, a different number of items), and `unknown` otherwise (a style, comment or type
 * difference whose effect only serialization can tell).
 */
import { type Document, isCollection, isNode, isPair, isScalar } from "yaml";

/** Whether a document serializes like its fingerprint: `same`, `changed` or `unknown` (serialize to tell). */
export type Sameness = "same" | "changed" | "unknown";

/** A document's fingerprint (see the module comment); opaque. */
export type Fingerprint = readonly unknown[];

/** Fields of a node that serialization does not read (positions, parser tokens, source text) or that are walked. */
const IGNORED = new Set(["range", "srcToken", "source", "items", "key", "value"]);

/** Marks a value that is not a node (a plain value a function stored in a collection). */
const PLAIN = Symbol("plain");

function directivesKey(doc: Document): string {
  const d = doc.directives;
  if (!d) return "";
  return JSON.stringify([d.docStart, d.docEnd, d.yaml.explicit, d.yaml.version, d.tags]);
}

function pushFields(out: unknown[], node: object): void {
  const fields = node as Record<string, unknown>;
  const at = out.length;
  out.push(0);
  let count = 0;
  for (const key in fields) {
    if (!Object.hasOwn(fields, key) || IGNORED.has(key)) continue;
    out.push(key, fields[key]);
    count++;
  }
  out[at] = count;
}

function pushNode(out: unknown[], node: unknown): void {
  if (isScalar(node)) {
    out.push(node.constructor, node.value);
    pushFields(out, node);
  } else if (isCollection(node)) {
    const items = node.items as unknown[];
    out.push(node.constructor, items.length);
    pushFields(out, node);
    for (const item of items) pushNode(out, item);
  } else if (isPair(node)) {
    out.push(node.constructor);
    pushFields(out, node);
    pushNode(out, node.key);
    pushNode(out, node.value);
  } else if (isNode(node)) {
    out.push(node.constructor);
    pushFields(out, node);
  } else {
    out.push(PLAIN, node);
  }
}

/** The fingerprint of a document as it is now. */
export function fingerprint(doc: Document): Fingerprint {
  const out: unknown[] = [doc.commentBefore, doc.comment, doc.schema, directivesKey(doc)];
  pushNode(out, doc.contents);
  return out.slice(); // without the spare capacity pushing left
}

class Walk {
  at = 0;
  unknown = false;
  constructor(readonly fp: Fingerprint) {}
  next(): unknown {
    return this.fp[this.at++];
  }
}

/** Lost track of the fingerprint (a node of another class): stop, serialization must tell. */
class OutOfStep extends Error {}

/** Compares own fields with the fingerprint's; a difference marks `unknown`. */
function compareFields(w: Walk, node: object): void {
  const fields = node as Record<string, unknown>;
  const count = w.next() as number;
  const start = w.at;
  w.at += 2 * count;
  let seen = 0;
  for (const key in fields) {
    if (!Object.hasOwn(fields, key) || IGNORED.has(key)) continue;
    const i = start + 2 * seen;
    seen++;
    if (seen > count || w.fp[i] !== key || !Object.is(w.fp[i + 1], fields[key])) {
      w.unknown = true;
      return;
    }
  }
  if (seen !== count) w.unknown = true;
}

/** True when the text certainly differs; marks `unknown` for differences serialization must judge. */
function compareNode(w: Walk, node: unknown): boolean {
  const kind = w.next();
  if (isScalar(node)) {
    if (kind !== node.constructor) throw new OutOfStep();
    const value = w.next();
    if (!Object.is(value, node.value)) {
      const type = typeof value;
      if (type === typeof node.value && (type === "string" || type === "number" || type === "boolean"))
        return true;
      w.unknown = true;
    }
    compareFields(w, node);
    return false;
  }
  if (isCollection(node)) {
    if (kind !== node.constructor) throw new OutOfStep();
    const items = node.items as unknown[];
    if (w.next() !== items.length) return true;
    compareFields(w, node);
    for (const item of items) if (compareNode(w, item)) return true;
    return false;
  }
  if (isPair(node)) {
    if (kind !== node.constructor) throw new OutOfStep();
    compareFields(w, node);
    return compareNode(w, node.key) || compareNode(w, node.value);
  }
  if (isNode(node)) {
    if (kind !== node.constructor) throw new OutOfStep();
    compareFields(w, node);
    return false;
  }
  if (kind !== PLAIN) throw new OutOfStep();
  if (!Object.is(w.next(), node)) w.unknown = true;
  return false;
}

/** Compares a document now with its fingerprint as read (see the module comment). */
export function compareWithFingerprint(doc: Document, fp: Fingerprint): Sameness {
  const w = new Walk(fp);
  if (
    w.next() !== doc.commentBefore ||
    w.next() !== doc.comment ||
    w.next() !== doc.schema ||
    w.next() !== directivesKey(doc)
  ) {
    return "unknown";
  }
  try {
    if (compareNode(w, doc.contents)) return "changed";
  } catch (err) {
    if (err instanceof OutOfStep) return "unknown";
    throw err;
  }
  return w.unknown ? "unknown" : "same";
}
