/**
 * `search-replace` (krm-functions-catalog): finds scalar fields by `by-value`, `by-value-regex`,
 * `by-path` (dotted, `*`, `**`, `a[*]`) and `by-file-path` (glob), and sets them with `put-value`
 * (regex groups `${1}`) and/or tags them with `put-comment`. Results: `Mutated field value to "<v>"`
 * (or `Matched field value "<v>"`) with field and file path; `no matches` when nothing matched.
 */
import picomatch from "picomatch";
import { Document, isMap, isScalar, isSeq, type Pair, Scalar, YAMLMap, type YAMLSeq } from "yaml";
import { compileRe2, type Re2, Re2SyntaxError } from "../../krm/re2.js";
import type { FunctionResult } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { configMapData, isEmptyConfig } from "./function-config.js";
import { fileOf, setScalarText, walkFields } from "./yaml-nodes.js";

const MATCHERS = ["by-value", "by-file-path", "by-value-regex", "by-path", "put-value", "put-comment"];

interface Config {
  byValue: string;
  byValueRegex: string;
  byPath: string;
  byFilePath: string;
  putValue: string;
  putComment: string;
}

class SearchError extends Error {}

/**
 * The catalog's `by-file-path` glob (doublestar semantics: `**` crosses `/`, `*` and `?` do not,
 * `{a,b}` and `[...]` supported), matched with picomatch; dot files match too.
 */
export function fileGlobMatcher(glob: string): (path: string) => boolean {
  return picomatch(glob, { dot: true });
}

function elementMatch(elem: string, pattern: string): boolean {
  if (elem === pattern) return true;
  if (!elem.includes("[")) return false;
  const e = elem.split("[");
  const p = pattern.split("[");
  if (p[0] !== "*" && e[0] !== p[0]) return false;
  return p.length > 1 && (p[1] === "*]" || e[1] === p[1]);
}

/** The catalog's path matcher: `*` one element, `**` zero or more. */
function pathMatches(yamlPath: string, byPath: string): boolean {
  if (byPath === "") return false;
  const pattern = byPath.split(".");
  const elems = yamlPath.replace(/^\./, "").split(".");
  const dp: boolean[][] = Array.from({ length: elems.length + 1 }, () =>
    Array(pattern.length + 1).fill(false),
  );
  dp[0][0] = true;
  for (let j = 1; j <= pattern.length; j++) if (pattern[j - 1] === "**") dp[0][j] = dp[0][j - 1];
  for (let i = 1; i <= elems.length; i++) {
    for (let j = 1; j <= pattern.length; j++) {
      const p = pattern[j - 1];
      if (p === "**") dp[i][j] = dp[i][j - 1] || dp[i - 1][j];
      else if (p === "*" || elementMatch(elems[i - 1], p)) dp[i][j] = dp[i - 1][j - 1];
    }
  }
  return dp[elems.length][pattern.length];
}

/** The catalog's `resolvePattern`: `${N}` in `pattern` replaced by group N of the value's first match. */
function resolvePattern(value: string, regex: Re2 | undefined, pattern: string): string {
  if (!regex) return pattern;
  const groups = regex.findSubmatch(value) ?? [];
  let out = pattern;
  for (let i = 1; i < groups.length; i++) out = out.split(`\${${i}}`).join(groups[i] ?? "");
  if (/\$\{[0-9]+\}/.test(out)) throw new SearchError("unable to resolve capture groups");
  return out;
}

/** A scalar as kyaml prints it (value plus ` # comment`). */
function scalarYaml(node: Scalar): string {
  const doc = new Document();
  doc.contents = node;
  return doc.toString({ lineWidth: 0 }).trim();
}

class Searcher {
  readonly results: Array<{ filePath: string; fieldPath: string; value: string }> = [];
  count = 0;
  filePath = "";
  readonly regex: Re2 | undefined;
  constructor(private readonly c: Config) {
    // Go's regexp (RE2), as the catalog: linear time, so a hostile pattern cannot stall a render.
    this.regex = c.byValueRegex ? compileRe2(c.byValueRegex) : undefined;
  }

  private criteria(node: Scalar, path: string): boolean {
    const value = node.value === null || node.value === undefined ? "" : String(node.value);
    const pathMatch = pathMatches(path, this.c.byPath);
    const valueMatch =
      (this.c.byValue !== "" && this.c.byValue === value) || (this.regex?.test(value) ?? false);
    return (
      (valueMatch && pathMatch) ||
      (valueMatch && this.c.byPath === "") ||
      (pathMatch && this.c.byValue === "" && this.c.byValueRegex === "")
    );
  }

  scalar(node: Scalar, path: string): void {
    if (!this.criteria(node, path)) return;
    this.count += 1;
    const value = node.value === null || node.value === undefined ? "" : String(node.value);
    if (this.c.putComment !== "") node.comment = ` ${resolvePattern(value, this.regex, this.c.putComment)}`;
    if (this.c.putValue !== "") setScalarText(node, resolvePattern(value, this.regex, this.c.putValue));
    if (this.filePath !== "") {
      this.results.push({
        filePath: this.filePath,
        fieldPath: path.replace(/^\./, ""),
        value: scalarYaml(node),
      });
    }
  }

  mapping(map: YAMLMap, path: string): void {
    if (this.c.putComment === "") return;
    for (const pair of map.items as Pair<unknown, unknown>[]) {
      if (!isSeq(pair.value) || pair.value.items.length === 0) continue;
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      if (!pathMatches(`${path}.${key}`.replace(/^\./, ""), this.c.byPath)) continue;
      if (isScalar(pair.key)) pair.key.comment = ` ${this.c.putComment}`;
      const flow = pair.value.clone() as YAMLSeq;
      flow.flow = true;
      flow.comment = undefined;
      flow.commentBefore = undefined;
      const doc = new Document();
      doc.contents = flow;
      pair.value.flow = false;
      pair.value.commentBefore = undefined;
      this.results.push({
        filePath: this.filePath,
        fieldPath: `${this.c.byPath} # ${this.c.putComment}`,
        value: doc.toString({ lineWidth: 0 }).trim(),
      });
      this.count += 1;
    }
  }

  walk(node: unknown, path: string): void {
    walkFields(node, path, {
      map: (map, at) => this.mapping(map, at),
      scalar: (scalar, at) => this.scalar(scalar, at),
    });
  }

  /** `put-value` at a plain absolute path: create the parents and set the field. */
  putByPath(root: unknown): void {
    if (!isMap(root)) return;
    const segs = this.c.byPath.split(".");
    let cur: YAMLMap = root;
    for (const seg of segs.slice(0, -1)) {
      const next: unknown = cur.get(seg, true);
      if (isMap(next)) cur = next;
      else if (next === undefined || next === null || (isScalar(next) && next.value === null)) {
        const created = new YAMLMap();
        cur.set(seg, created);
        cur = created;
      } else throw new SearchError(`wrong node kind: expected MappingNode at ${seg}`);
    }
    const last = segs[segs.length - 1];
    const existing: unknown = cur.get(last, true);
    const node = isScalar(existing) ? existing : new Scalar(null);
    node.type = Scalar.PLAIN;
    setScalarText(node, this.c.putValue);
    if (node !== existing) cur.set(last, node);
    this.results.push({ filePath: this.filePath, fieldPath: this.c.byPath, value: this.c.putValue });
    this.count += 1;
  }
}

function readConfig(data: Map<string, string>): Config {
  for (const key of data.keys()) {
    if (!MATCHERS.includes(key)) {
      throw new SearchError(
        `invalid matcher ${JSON.stringify(key)}, must be one of [${MATCHERS.map((m) => JSON.stringify(m)).join(" ")}]`,
      );
    }
  }
  const c: Config = {
    byValue: data.get("by-value") ?? "",
    byValueRegex: data.get("by-value-regex") ?? "",
    byPath: data.get("by-path") ?? "",
    byFilePath: data.get("by-file-path") ?? "",
    putValue: data.get("put-value") ?? "",
    putComment: data.get("put-comment") ?? "",
  };
  if (c.byValue !== "" && c.byValueRegex !== "") {
    throw new SearchError('only one of ["by-value", "by-value-regex"] can be provided');
  }
  return c;
}

/** The builtin `search-replace`. Errors: one error result, exit code 1. */
export const searchReplace: BuiltinFunction = {
  name: "search-replace",
  catalogVersion: "v0.2.0",
  run(input) {
    const fc = input.functionConfig;
    const parsed = fc && !isEmptyConfig(fc) ? configMapData(fc) : { data: new Map<string, string>() };
    try {
      if ("error" in parsed) throw new SearchError(parsed.error);
      const c = readConfig(parsed.data);
      const searcher = new Searcher(c);
      const byPathOnly =
        c.byPath !== "" &&
        !c.byPath.split(".").some((e) => e === "" || e.includes("*")) &&
        !c.byPath.includes("[") &&
        c.byValue === "" &&
        c.byValueRegex === "" &&
        c.putValue !== "";
      const fileGlob = c.byFilePath ? fileGlobMatcher(c.byFilePath) : undefined;
      for (const doc of input.items) {
        const filePath = fileOf(doc)?.path ?? "";
        if (fileGlob && !fileGlob(filePath)) continue;
        searcher.filePath = filePath;
        if (byPathOnly) searcher.putByPath(doc.contents);
        else searcher.walk(doc.contents, "");
      }
      const mutated = c.putComment !== "" || c.putValue !== "";
      const results: FunctionResult[] =
        searcher.results.length === 0
          ? [{ message: "no matches" }]
          : searcher.results.map((r) => ({
              message: mutated
                ? `Mutated field value to ${JSON.stringify(r.value)}`
                : `Matched field value ${JSON.stringify(r.value)}`,
              field: { path: r.fieldPath },
              file: { path: r.filePath },
            }));
      return { items: input.items, results };
    } catch (err) {
      if (!(err instanceof SearchError) && !(err instanceof Re2SyntaxError)) throw err;
      const message = `failed to perform search-replace operation: ${JSON.stringify(err.message)}`;
      return { items: input.items, results: [{ message, severity: "error" }], stderr: err.message };
    }
  },
};
