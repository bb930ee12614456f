/**
 * `apply-setters` (krm-functions-catalog): every scalar whose line comment is
 * `# kpt-set: <pattern>` gets the pattern with `${setter}` replaced by the ConfigMap's values (setters
 * not given keep the value derived from the current field); a sequence tagged with `${setter}` is
 * replaced by the setter's YAML list. Results: `set field value to "<v>"` per field set.
 */
import { isScalar, isSeq, type Pair, parseDocument, type Scalar, type YAMLSeq } from "yaml";
import { compileRe2, quoteMeta } from "../../krm/re2.js";
import type { FunctionResult, KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { configMapData, isEmptyConfig } from "./function-config.js";
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
  const first = comment.split("\n")[0];
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

class SetterApplier {
  readonly changes: Change[] = [];
  filePath = "";
  constructor(private readonly setters: Map<string, string>) {}

  private shouldSet(pattern: string): boolean {
    for (const name of this.setters.keys()) if (pattern.includes(`\${${name}}`)) return true;
    return false;
  }

  scalar(node: Scalar, path: string): void {
    const pattern = setterPattern(node.comment);
    if (pattern === "" || !this.shouldSet(pattern)) return;
    let value = pattern;
    for (const [name, v] of this.setters) value = value.split(`\${${name}}`).join(v);
    // Setters not given are read back from the current value (only needed when some are left).
    if (value.includes("${")) {
      const current = node.value === null || node.value === undefined ? "" : String(node.value);
      for (const [name, v] of currentValues(pattern, current, this.setters))
        value = value.split(`\${${name}}`).join(v);
    }
    const unresolved = refsIn(value);
    if (unresolved.length > 0)
      throw new SetterError(`values for setters ${goList(unresolved)} must be provided`);
    setScalarText(node, value);
    this.changes.push({ filePath: this.filePath, fieldPath: path.replace(/^\./, ""), value });
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
    if (pattern === "" || !this.shouldSet(pattern)) return;
    const refs = refsIn(pattern);
    if (!(refs.length === 1 && pattern.startsWith("${") && pattern.endsWith("}"))) {
      throw new SetterError(`invalid setter pattern for array node: ${JSON.stringify(pattern)}`);
    }
    const sv = this.setters.get(pattern.slice(2, -1).trim()) ?? "";
    const fieldPath = `${path}.${key}`.replace(/^\./, "");
    const comment = ` ${IDENTIFIER}${pattern}`;
    if (sv === "") {
      if (!seq.flow && onKey === "key" && keyNode) keyNode.comment = undefined;
      if (!seq.flow && onKey === "before") seq.commentBefore = undefined;
      seq.items = [];
      seq.flow = true;
      seq.comment = comment;
    } else {
      const parsed = parseDocument(sv);
      if (parsed.errors.length > 0 || !isSeq(parsed.contents)) {
        throw new SetterError(
          `input to array setter must be an array of values, but found ${JSON.stringify(sv)}`,
        );
      }
      seq.items = parsed.contents.items;
      if (seq.flow) seq.comment = undefined;
      else if (onKey === "before") seq.commentBefore = undefined;
      seq.flow = false;
      if (keyNode) keyNode.comment = comment;
      else seq.commentBefore = comment;
    }
    this.changes.push({ filePath: this.filePath, fieldPath, value: sv });
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

class SetterError extends Error {}

/** The builtin `apply-setters`. */
export const applySetters: BuiltinFunction = {
  name: "apply-setters",
  catalogVersion: "v0.2.1",
  run(input) {
    const setters = new Map<string, string>();
    const fc: KrmResource | undefined = input.functionConfig;
    if (fc && !isEmptyConfig(fc)) {
      const parsed = configMapData(fc);
      if ("data" in parsed) for (const [k, v] of parsed.data) setters.set(k, v);
    }
    const applier = new SetterApplier(setters);
    try {
      for (const doc of input.items) {
        applier.filePath = fileOf(doc)?.path ?? "";
        applier.walk(doc.contents, "");
      }
    } catch (err) {
      if (!(err instanceof SetterError)) throw err;
      const message = `failed to apply setters: ${err.message}`;
      return { items: input.items, results: [{ message, severity: "error" }], stderr: message };
    }
    const results: FunctionResult[] =
      applier.changes.length === 0
        ? [{ message: "no matches for input setter(s)" }]
        : applier.changes.map((c) => ({
            message: `set field value to ${JSON.stringify(c.value)}`,
            field: { path: c.fieldPath },
            file: { path: c.filePath },
          }));
    return { items: input.items, results };
  },
};
