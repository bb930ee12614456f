/**
 * `apply-setters` (krm-functions-catalog): every scalar whose line comment is
 * `# kpt-set: <pattern>` gets the pattern with `${setter}` replaced by the ConfigMap's values (setters
 * not given keep the value derived from the current field); a sequence tagged with `${setter}` is
 * replaced by the setter's YAML list. Results: `set field value to "<v>"` per field set.
 */
import { isScalar, isSeq, type Pair, parseDocument, type Scalar, type YAMLSeq } from "yaml";
import { INTERNAL_PATH, LEGACY_PATH } from "../../krm/annotations.js";
import { compileRe2, quoteMeta } from "../../krm/re2.js";
import type { FunctionResult, KrmResource } from "../../krm/resource-list.js";
import { Kind, Style, type YNode } from "../../yaml/node.js";
import { parseStream } from "../../yaml/parser.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { configMapData, isEmptyConfig } from "./function-config.js";
import { annotationNode, keyString, nodeString, rootOf, setScalarTextNode } from "./node-fields.js";
import { fileOf, goList, keyText, setScalarText, walkFields } from "./yaml-nodes.js";

const IDENTIFIER = "kpt-set: ";
const SETTER_REF = /\$\{([^}]*)\}/g;

interface Change {
  filePath: string;
  fieldPath: string;
  value: string;
}

/** The pattern of a `# kpt-set: <pattern>` comment (the yaml library strips the `#`). */
function setterPattern(comment: string | null | undefined): string {
  if (!comment) return "";
  const nl = comment.indexOf("\n");
  const first = nl < 0 ? comment : comment.slice(0, nl);
  if (!first.startsWith(" ")) return "";
  const text = first.slice(1);
  return text.startsWith(IDENTIFIER) ? text.slice(IDENTIFIER.length).trim() : "";
}

function refsIn(pattern: string): string[] {
  return pattern.match(SETTER_REF) ?? [];
}

/**
 * Values of setters not given, read back from the current value through the pattern. The catalog
 * matches `(.*)` for every setter, greedily; when the pattern also holds given setters that reading is
 * ambiguous (`${project}-${cluster}-hub` over `p-c-x-hub` gives project `p-c`), and rendering again
 * would grow the value on every run. So the given setters' values are tried as literals first: when the
 * current value already reads that way, the read-back is the one that renders it unchanged (a fixed
 * point, so rendering a rendered package changes nothing); otherwise the catalog's reading applies.
 */
function currentValues(
  pattern: string,
  value: string,
  given: ReadonlyMap<string, string>,
): Map<string, string> {
  const withGiven = matchSetters(pattern, value, given);
  return withGiven.size > 0 ? withGiven : matchSetters(pattern, value, new Map());
}

function matchSetters(
  pattern: string,
  value: string,
  literals: ReadonlyMap<string, string>,
): Map<string, string> {
  const refs = refsIn(pattern);
  let source = quoteMeta(pattern);
  const unknown: string[] = [];
  for (const ref of refs) {
    const name = ref.slice(2, -1).trim();
    const literal = literals.get(name);
    if (literal === undefined) unknown.push(name);
    source = source.split(quoteMeta(ref)).join(literal === undefined ? "(.*)" : quoteMeta(literal));
  }
  const out = new Map<string, string>();
  if (unknown.length === 0) return out;
  const match = compileRe2(literals.size > 0 ? `^${source}$` : source).findSubmatch(value);
  if (!match || match.length - 1 !== unknown.length) return out;
  for (let i = 0; i < unknown.length; i++) {
    const v = match[i + 1] ?? "";
    if (v === "") return new Map();
    out.set(unknown[i], v);
  }
  return out;
}

/** The setter values and the changes made: the logic both forms of the walk share. */
class SetterApplier {
  readonly changes: Change[] = [];
  /** The file of the item being walked, read when its first change is recorded (before any edit of it). */
  private file: (() => string) | undefined;
  private filePath = "";
  constructor(private readonly setters: Map<string, string>) {}

  /** Starts an item: `file` gives its file path (read only if the item changes). */
  startItem(file: () => string): void {
    this.file = file;
    this.filePath = "";
  }

  private record(fieldPath: string, value: string): void {
    if (this.file) {
      this.filePath = this.file();
      this.file = undefined;
    }
    this.changes.push({ filePath: this.filePath, fieldPath, value });
  }

  /**
   * What a pattern comes to with the given setters alone, per pattern: `null` when no given setter
   * is in it, else the pattern with them replaced (still holding `${` when some are not given).
   */
  private readonly substituted = new Map<string, string | null>();

  private substitute(pattern: string): string | null {
    let value = this.substituted.get(pattern);
    if (value !== undefined) return value;
    value = null;
    for (const name of this.setters.keys()) {
      if (pattern.includes(`\${${name}}`)) {
        value = pattern;
        break;
      }
    }
    if (value !== null) for (const [name, v] of this.setters) value = value.split(`\${${name}}`).join(v);
    this.substituted.set(pattern, value);
    return value;
  }

  private shouldSet(pattern: string): boolean {
    return this.substitute(pattern) !== null;
  }

  /**
   * The new text of a scalar with setter comment `pattern` whose current text is `current`, or
   * undefined when no given setter is in the pattern. Records the change at `path()` (the field path,
   * built only for a change).
   * @throws SetterError when setters of the pattern are neither given nor readable from `current`.
   */
  scalarValue(pattern: string, current: () => string, path: () => string): string | undefined {
    if (pattern === "") return undefined;
    let value = this.substitute(pattern);
    if (value === null) return undefined;
    // Setters not given are read back from the current value (only needed when some are left).
    if (value.includes("${")) {
      for (const [name, v] of currentValues(pattern, current(), this.setters))
        value = value.split(`\${${name}}`).join(v);
      const unresolved = refsIn(value);
      if (unresolved.length > 0)
        throw new SetterError(`values for setters ${goList(unresolved)} must be provided`);
    }
    const at = path();
    this.record(at.charCodeAt(0) === 46 ? at.slice(1) : at, value);
    return value;
  }

  /**
   * The setter's value for an array setter `pattern` in the mapping at `path()` (the field `key()`),
   * "" for an empty list, or undefined when no given setter is in the pattern. Records the change.
   * @throws SetterError when the pattern is not a single `${setter}`.
   */
  arrayValue(pattern: string, path: () => string, key: () => string): string | undefined {
    if (pattern === "" || !this.shouldSet(pattern)) return undefined;
    const refs = refsIn(pattern);
    if (!(refs.length === 1 && pattern.startsWith("${") && pattern.endsWith("}"))) {
      throw new SetterError(`invalid setter pattern for array node: ${JSON.stringify(pattern)}`);
    }
    const sv = this.setters.get(pattern.slice(2, -1).trim()) ?? "";
    this.record(`${path()}.${key()}`.replace(/^\./, ""), sv);
    return sv;
  }

  /** The function's results for the changes made. */
  results(): FunctionResult[] {
    if (this.changes.length === 0) return [{ message: "no matches for input setter(s)" }];
    // The values set repeat (one per setter, mostly): each message is written once.
    const messages = new Map<string, string>();
    return this.changes.map((c) => {
      let message = messages.get(c.value);
      if (message === undefined) {
        message = `set field value to ${JSON.stringify(c.value)}`;
        messages.set(c.value, message);
      }
      return { message, field: { path: c.fieldPath }, file: { path: c.filePath } };
    });
  }
}

function arrayError(sv: string): SetterError {
  return new SetterError(`input to array setter must be an array of values, but found ${JSON.stringify(sv)}`);
}

/** The walk over a `yaml` Document. */
class DocumentSetters {
  constructor(private readonly applier: SetterApplier) {}

  scalar(node: Scalar, path: string): void {
    const current = () => (node.value === null || node.value === undefined ? "" : String(node.value));
    const value = this.applier.scalarValue(setterPattern(node.comment), current, () => path);
    if (value !== undefined) setScalarText(node, value);
  }

  /**
   * An array setter. The `key: # kpt-set: ${x}` comment is on the key (kyaml) — the yaml library
   * keeps it on the key when the engine hoists it there, else as the list's `commentBefore`.
   */
  sequence(pair: Pair<unknown, unknown>, seq: YAMLSeq, key: string, path: string): void {
    const keyNode = isScalar(pair.key) ? pair.key : undefined;
    const onKey = keyNode?.comment ? "key" : "before";
    const raw = seq.flow ? seq.comment : onKey === "key" ? keyNode?.comment : seq.commentBefore;
    const pattern = setterPattern(raw);
    const sv = this.applier.arrayValue(
      pattern,
      () => path,
      () => key,
    );
    if (sv === undefined) return;
    const comment = ` ${IDENTIFIER}${pattern}`;
    if (sv === "") {
      if (!seq.flow && onKey === "key" && keyNode) keyNode.comment = undefined;
      if (!seq.flow && onKey === "before") seq.commentBefore = undefined;
      seq.items = [];
      seq.flow = true;
      seq.comment = comment;
    } else {
      const parsed = parseDocument(sv);
      if (parsed.errors.length > 0 || !isSeq(parsed.contents)) throw arrayError(sv);
      seq.items = parsed.contents.items;
      if (seq.flow) seq.comment = undefined;
      else if (onKey === "before") seq.commentBefore = undefined;
      seq.flow = false;
      if (keyNode) keyNode.comment = comment;
      else seq.commentBefore = comment;
    }
  }

  walk(node: unknown, path: string): void {
    walkFields(node, path, {
      map: (map, at) => {
        for (const pair of map.items)
          if (isSeq(pair.value)) this.sequence(pair, pair.value, keyText(pair), at);
      },
      scalar: (scalar, at) => this.scalar(scalar, at),
    });
  }
}

/** A yaml.v3 comment's first line as the `yaml` package holds it (without `#`). */
function commentText(comment: string): string {
  const nl = comment.indexOf("\n");
  const first = nl < 0 ? comment : comment.slice(0, nl);
  if (first.charCodeAt(0) !== 35) return first;
  return first.length === 1 ? " " : first.slice(1);
}

function firstNonEmpty(...comments: string[]): string {
  return comments.find((c) => c !== "") ?? "";
}

function joinComments(a: string, b: string): string {
  return a === "" ? b : b === "" ? a : `${a}\n${b}`;
}

/**
 * The walk over document nodes, editing them as the Document walk edits its nodes (comments end up
 * where the Document's trip back to nodes puts them).
 */
class NodeSetters {
  constructor(private readonly applier: SetterApplier) {}

  /**
   * The steps from the walk's root to the node being walked: a mapping's key node or a sequence
   * index per level. Field paths are built from them only for a change.
   */
  private readonly steps: (YNode | number)[] = [];

  /** The field path of the node being walked (`.spec.containers[0].image`), as the catalog reports it. */
  private path(): string {
    let out = "";
    for (const step of this.steps) out += typeof step === "number" ? `[${step}]` : `.${keyString(step)}`;
    return out;
  }

  scalar(node: YNode, key: YNode | undefined): void {
    // A `key: value # comment` comment may be held by the key (the Document form moves it to the value).
    const comment = node.lineComment !== "" ? node.lineComment : (key?.lineComment ?? "");
    if (comment === "") return;
    const value = this.applier.scalarValue(
      setterPattern(commentText(comment)),
      () => nodeString(node) ?? "",
      () => this.path(),
    );
    if (value !== undefined) setScalarTextNode(node, value);
  }

  /** An array setter: the value at `map.content[i]` is a sequence (`map` the node being walked). */
  sequence(map: YNode, i: number): void {
    const key = map.content[i - 1];
    const seq = map.content[i];
    const items = seq.content;
    const flow = (seq.style & Style.Flow) !== 0;
    const onKey = key.lineComment !== "";
    const raw = flow
      ? firstNonEmpty(
          seq.lineComment,
          items[items.length - 1]?.footComment ?? "",
          seq.footComment,
          key.lineComment,
        )
      : onKey
        ? key.lineComment
        : (items[0]?.headComment ?? "");
    if (raw === "") return;
    const pattern = setterPattern(commentText(raw));
    const sv = this.applier.arrayValue(
      pattern,
      () => this.path(),
      () => keyString(key),
    );
    if (sv === undefined) return;
    const comment = `# ${IDENTIFIER}${pattern}`;
    // What the Document form keeps of the old list: the head comment above its first item when the
    // setter comment is on the key, the comment below a block list.
    const before = !flow && onKey ? (items[0]?.headComment ?? "") : "";
    const trailing = flow ? "" : joinComments(items[items.length - 1]?.footComment ?? "", seq.footComment);
    seq.footComment = "";
    if (sv === "") {
      if (!flow && onKey) key.lineComment = "";
      if (before !== "") key.headComment = joinComments(key.headComment, before);
      seq.content = [];
      seq.style |= Style.Flow;
      seq.lineComment = comment;
      return;
    }
    let parsed: YNode[];
    try {
      parsed = parseStream(sv);
    } catch {
      throw arrayError(sv);
    }
    const list = parsed.length === 1 ? parsed[0].content[0] : undefined;
    if (list?.kind !== Kind.Sequence) throw arrayError(sv);
    seq.content = list.content;
    seq.style &= ~Style.Flow;
    seq.lineComment = "";
    key.lineComment = comment;
    const first = seq.content[0];
    if (before !== "") {
      if (first) first.headComment = joinComments(before, first.headComment);
      else key.headComment = joinComments(key.headComment, before);
    }
    if (trailing === "") return;
    const last = seq.content[seq.content.length - 1];
    if (!last) return;
    if (last.kind === Kind.Mapping || last.kind === Kind.Sequence) {
      // Below a list ending in a collection the comment heads the next key (or is this key's foot).
      const next = map.content[i + 1];
      if (next) next.headComment = joinComments(trailing, next.headComment);
      else key.footComment = joinComments(key.footComment, trailing);
    } else last.footComment = joinComments(last.footComment, trailing);
  }

  /**
   * Walks every node below `node` depth-first, as yaml-nodes' `walkFields` walks a Document: a
   * mapping's array setters before its values, a scalar with its key when it is a mapping value.
   * Only commented nodes do more than a kind test.
   */
  walk(node: YNode, key?: YNode): void {
    if (node.kind === Kind.Mapping) {
      let c = node.content;
      for (let i = 1; i < c.length; i += 2) if (c[i].kind === Kind.Sequence) this.sequence(node, i);
      c = node.content;
      const steps = this.steps;
      for (let i = 0; i + 1 < c.length; i += 2) {
        const k = c[i];
        const v = c[i + 1];
        // A scalar without a comment (most of them) is passed over without a call.
        if (v.kind === Kind.Scalar && v.lineComment === "" && k.lineComment === "") continue;
        steps.push(k);
        this.walk(v, k);
        steps.pop();
      }
    } else if (node.kind === Kind.Sequence) {
      const c = node.content;
      const steps = this.steps;
      for (let i = 0; i < c.length; i++) {
        const v = c[i];
        if (v.kind === Kind.Scalar && v.lineComment === "") continue;
        steps.push(i);
        this.walk(v);
        steps.pop();
      }
    } else if (node.kind === Kind.Scalar && (node.lineComment !== "" || key?.lineComment)) {
      this.scalar(node, key);
    }
  }
}

class SetterError extends Error {}

/** The setters given by the functionConfig (a ConfigMap's data; none for another config). */
function readSetters(fc: KrmResource | undefined): Map<string, string> {
  const setters = new Map<string, string>();
  if (fc && !isEmptyConfig(fc)) {
    const parsed = configMapData(fc);
    if ("data" in parsed) for (const [k, v] of parsed.data) setters.set(k, v);
  }
  return setters;
}

/** Runs `walk` over each item with the applier; the function's results, stderr for an error. */
function applyOn<H>(
  items: readonly H[],
  fc: KrmResource | undefined,
  walk: (applier: SetterApplier, item: H) => void,
): { results: FunctionResult[]; stderr?: string } {
  const applier = new SetterApplier(readSetters(fc));
  try {
    for (const item of items) walk(applier, item);
  } catch (err) {
    if (!(err instanceof SetterError)) throw err;
    const message = `failed to apply setters: ${err.message}`;
    return { results: [{ message, severity: "error" }], stderr: message };
  }
  return { results: applier.results() };
}

/** The builtin `apply-setters`. */
export const applySetters: BuiltinFunction = {
  name: "apply-setters",
  catalogVersion: "v0.2.1",
  run(input) {
    const out = applyOn(input.items, input.functionConfig, (applier, doc) => {
      applier.startItem(() => fileOf(doc)?.path ?? "");
      new DocumentSetters(applier).walk(doc.contents, "");
    });
    return { items: input.items, ...out };
  },
  runNodes(input) {
    const out = applyOn(input.items, input.functionConfig, (applier, doc) => {
      applier.startItem(() => annotationNode(doc, INTERNAL_PATH) ?? annotationNode(doc, LEGACY_PATH) ?? "");
      const root = rootOf(doc);
      if (root) new NodeSetters(applier).walk(root);
    });
    return { items: input.items, ...out };
  },
};
