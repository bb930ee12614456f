/**
 * `list-setters` (krm-functions-catalog): reports the setters of a package, one info result each
 * (`Name: tag, Value: 1.16.2, Type: str, Count: 1`), sorted by name: the `apply-setters` values of
 * the Kptfile's pipeline (count 0 until a field uses them) and every `# kpt-set:` comment in the
 * resources — scalar setters with the value the field's current text gives them against the pattern
 * (`nginx:${tag}` on `nginx:1.16.2` → `1.16.2`) and its YAML type, array setters with the list's
 * sorted items. No setter gives a `no setters found` warning. Resources are not changed.
 */
import { isMap, isScalar, isSeq, parseDocument, type Scalar, type YAMLMap } from "yaml";
import { compileRe2, quoteMeta } from "../../krm/re2.js";
import type { FunctionResult, KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { configMapData } from "./function-config.js";
import { fileOf, getMap, getNode, getString, scalarString, stringEntries, walkFields } from "./yaml-nodes.js";

const IDENTIFIER = " kpt-set: ";

interface Setter {
  name: string;
  value: string;
  type: string;
  count: number;
}

/** The pattern of a line comment (`# kpt-set: <pattern>`; the yaml library drops the `#`), or "". */
function setterPattern(comment: string | null | undefined): string {
  const first = (comment ?? "").split("\n")[0];
  return first.startsWith(IDENTIFIER) ? first.slice(IDENTIFIER.length).trim() : "";
}

function cleanName(ref: string): string {
  const t = ref.trim();
  return t.replace(/^\$\{/, "").replace(/\}$/, "");
}

/** The values each `${name}` of `pattern` has in `value`; empty when they cannot all be derived. */
function currentValues(pattern: string, value: string): Map<string, string> {
  const refs = pattern.match(/\$\{[^}]*\}/g) ?? [];
  let regex = quoteMeta(pattern);
  // The catalog names every group `x`; Go accepts the repeated name, RE2 (and re2js) do not, and the
  // names are never read: plain groups match the same.
  for (const ref of refs) regex = regex.replaceAll(quoteMeta(ref), "(.*)");
  const out = new Map<string, string>();
  let match: (string | undefined)[] | undefined;
  try {
    match = compileRe2(regex).findSubmatch(value);
  } catch {
    return out;
  }
  if (!match) return out;
  const groups = match.slice(1);
  if (groups.length !== refs.length) return out;
  for (let i = 0; i < groups.length; i++) {
    if (!groups[i]) return new Map();
    out.set(cleanName(refs[i]), groups[i] as string);
  }
  return out;
}

/** yaml.v3's short tag of a scalar (`int`, `str`, `bool`, `float`, `null`). */
function scalarType(node: Scalar): string {
  const v = node.value;
  if (v === null) return "null";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number" || typeof v === "bigint") return Number.isInteger(v) ? "int" : "float";
  return "str";
}

class Lister {
  readonly scalars = new Map<string, Setter>();
  readonly arrays = new Map<string, Setter>();

  fromKptfile(items: readonly KrmResource[]): void {
    const kptfile = items.find((doc) => fileOf(doc)?.path === "Kptfile");
    if (!kptfile) return;
    const mutators = getNode(kptfile, ["pipeline", "mutators"]);
    const values = new Map<string, string>();
    for (const step of isSeq(mutators) ? mutators.items : []) {
      if (!isMap(step) || !(getString(step, ["image"]) ?? "").includes("apply-setters")) continue;
      const configMap = getMap(step, ["configMap"]);
      const configPath = getString(step, ["configPath"]);
      if (configMap) {
        for (const [k, v] of stringEntries(configMap)) values.set(k, v);
      } else if (configPath) {
        const node = items.find((doc) => fileOf(doc)?.path === configPath);
        if (!node) return;
        const data = configMapData(node);
        if ("data" in data) for (const [k, v] of data.data) values.set(k, v);
      } else {
        return;
      }
    }
    for (const [name, value] of values) {
      const parsed = parseDocument(value).contents;
      if (isSeq(parsed)) {
        const elements = parsed.items.map((i) =>
          String(isScalar(i) ? (i.source ?? i.value) : i).replaceAll("\n", ""),
        );
        this.arrays.set(name, { name, value: `[${elements.join(", ")}]`, type: "array", count: 0 });
      } else {
        this.scalars.set(name, { name, value, type: "str", count: 0 });
      }
    }
  }

  sequences(map: YAMLMap): void {
    for (const pair of map.items) {
      const seq = pair.value;
      if (!isSeq(seq)) continue;
      const keyComment = isScalar(pair.key) ? pair.key.comment : undefined;
      const comment = seq.flow ? seq.comment : (keyComment ?? seq.commentBefore);
      const pattern = setterPattern(comment);
      if (pattern === "") continue;
      const name = cleanName(pattern);
      const values = seq.items.map((i) => scalarString(i) ?? "").sort();
      const existing = this.arrays.get(name);
      if (existing) existing.count++;
      else this.arrays.set(name, { name, value: `[${values.join(", ")}]`, type: "array", count: 1 });
    }
  }

  scalar(node: Scalar): void {
    const pattern = setterPattern(node.comment);
    if (pattern === "") return;
    const type = scalarType(node);
    for (const [name, value] of currentValues(pattern, scalarString(node) ?? "")) {
      const existing = this.scalars.get(name);
      if (existing) {
        if (existing.type === "str" && type !== "str") existing.type = type;
        existing.count++;
      } else {
        this.scalars.set(name, { name, value, type, count: 1 });
      }
    }
  }

  results(): FunctionResult[] {
    const all = [...this.arrays.values(), ...this.scalars.values()];
    all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return all.map((s) => ({
      message: `Name: ${s.name}, Value: ${s.value}, Type: ${s.type}, Count: ${s.count}`,
    }));
  }
}

/** The builtin `list-setters`. */
export const listSetters: BuiltinFunction = {
  name: "list-setters",
  catalogVersion: "v0.1.0",
  run(input) {
    const lister = new Lister();
    lister.fromKptfile(input.items);
    for (const doc of input.items) {
      walkFields(doc.contents, "", {
        map: (map) => lister.sequences(map),
        scalar: (node) => lister.scalar(node),
      });
    }
    const results = lister.results();
    if (results.length === 0)
      return { items: input.items, results: [{ message: "no setters found", severity: "warning" }] };
    return { items: input.items, results };
  },
};
