/**
 * `create-setters` (krm-functions-catalog): the inverse of `apply-setters`. Given setter values in a
 * ConfigMap, it adds `# kpt-set: <pattern>` line comments to the fields whose values use them: a
 * scalar containing a scalar setter's value gets its value with each occurrence replaced by
 * `${name}` (longest values first: `nginx:1.16.1` → `nginx:${tag}`), and a sequence whose sorted
 * items equal an array setter's sorted values (`env: "- stage\n- dev"`) gets `# kpt-set: ${env}` on
 * its key. A flow sequence that gets a comment on its key, or whose items contain a scalar setter's
 * value, is rewritten in block style.
 */
import { isScalar, isSeq, parseDocument, type Scalar, type YAMLMap } from "yaml";
import type { FunctionResult, KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { configMapData } from "./function-config.js";
import { fileOf, goQuote, keyText, scalarString, walkFields } from "./yaml-nodes.js";

interface ScalarSetter {
  name: string;
  value: string;
}

interface ArraySetter {
  name: string;
  values: string[];
}

interface Setters {
  scalars: ScalarSetter[];
  arrays: ArraySetter[];
}

function readSetters(data: Map<string, string>): Setters {
  const scalars: ScalarSetter[] = [];
  const arrays: ArraySetter[] = [];
  for (const [name, value] of data) {
    const parsed = parseDocument(value).contents;
    if (isSeq(parsed)) {
      arrays.push({ name, values: parsed.items.map((i) => scalarString(i) ?? "").sort() });
    } else if (value !== "") {
      // An empty value would match everywhere; the catalog's replacer is never useful with one.
      scalars.push({ name, value });
    }
  }
  // Longest values first, so `nginx-abc` wins over `nginx` inside `nginx-abc-dev`.
  scalars.sort((a, b) => b.value.length - a.value.length);
  return { scalars, arrays };
}

/** Go's `strings.Replacer` over the setters: left to right, first matching setter wins, no overlaps. */
function replaceValues(text: string, scalars: readonly ScalarSetter[]): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const hit = scalars.find((s) => text.startsWith(s.value, i));
    if (hit) {
      out += `\${${hit.name}}`;
      i += hit.value.length;
    } else {
      out += text[i];
      i++;
    }
  }
  return out;
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

class Creator {
  readonly changes: Array<{ filePath: string; fieldPath: string; value: string; comment: string }> = [];
  filePath = "";

  constructor(private readonly setters: Setters) {}

  sequences(map: YAMLMap, path: string): void {
    for (const pair of map.items) {
      const seq = pair.value;
      if (!isSeq(seq)) continue;
      const values = seq.items.map((i) => (isScalar(i) ? String(i.value ?? "") : "")).sort();
      const fieldPath = `${path}.${keyText(pair)}`.replace(/^\./, "");
      let onKey = !seq.flow;
      if (seq.flow && values.some((v) => this.setters.scalars.some((s) => v.includes(s.value)))) {
        seq.flow = false;
        onKey = true;
      }
      const setter = this.setters.arrays.find((a) => sameValues(values, a.values));
      if (!setter) continue;
      if (!onKey && values.length > 0) {
        seq.flow = false;
        onKey = true;
      }
      const comment = ` kpt-set: \${${setter.name}}`;
      if (onKey && isScalar(pair.key)) (pair.key as Scalar).comment = comment;
      else seq.comment = comment;
      this.changes.push({
        filePath: this.filePath,
        fieldPath,
        value: `[${values.join(" ")}]`,
        comment: comment.trim(),
      });
    }
  }

  scalar(node: Scalar, path: string): void {
    const value = scalarString(node);
    if (value === undefined || value.includes("\n")) return;
    const pattern = replaceValues(value, this.setters.scalars);
    if (pattern === value) return;
    node.comment = ` kpt-set: ${pattern}`;
    this.changes.push({
      filePath: this.filePath,
      fieldPath: path.replace(/^\./, ""),
      value,
      comment: `kpt-set: ${pattern}`,
    });
  }
}

function failure(items: KrmResource[], message: string) {
  return {
    items,
    results: [{ message: `failed to create setters: ${message}`, severity: "error" as const }],
    stderr: message,
  };
}

/** The builtin `create-setters`. */
export const createSetters: BuiltinFunction = {
  name: "create-setters",
  catalogVersion: "v0.1.0",
  run(input) {
    const fc = input.functionConfig;
    const parsed = fc ? configMapData(fc) : { data: new Map<string, string>() };
    if ("error" in parsed || parsed.data.size === 0)
      return failure(input.items, "config map cannot be empty");
    const creator = new Creator(readSetters(parsed.data));
    for (const doc of input.items) {
      creator.filePath = fileOf(doc)?.path ?? "";
      walkFields(doc.contents, "", {
        map: (map, at) => creator.sequences(map, at),
        scalar: (node, at) => creator.scalar(node, at),
      });
    }
    if (creator.changes.length === 0) return failure(input.items, "no matches for the input list of setters");
    const results: FunctionResult[] = creator.changes.map((c) => ({
      message: `Added line comment ${goQuote(c.comment)} for field with value ${goQuote(c.value)}`,
      field: { path: c.fieldPath },
      file: { path: c.filePath },
    }));
    return { items: input.items, results };
  },
};
