/** The `fix` function's state (results, created setters ConfigMaps), comment migration and shared names. */
import { Document, isScalar, isSeq, type Scalar, type YAMLMap } from "yaml";
import { INTERNAL_PATH } from "../../../krm/annotations.js";
import type { FunctionResult, KrmResource } from "../../../krm/resource-list.js";
import { compareFieldNames } from "../kyaml-field-order.js";
import { toJs, walkFields } from "../yaml-nodes.js";

export const V1 = "kpt.dev/v1";
export const SETTERS_FILE = "setters.yaml";
export const SETTER_PREFIX = "io.k8s.cli.setters.";
const SUBST_PREFIX = "io.k8s.cli.substitutions.";
export const FUNCTION_ANNOTATIONS = ["config.kubernetes.io/function", "config.k8s.io/function"];

export type Json = Record<string, unknown>;

export function obj(value: unknown): Json {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

export function dirOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "." : path.slice(0, slash);
}

export function join(dir: string, name: string): string {
  return dir === "." || dir === "" ? name : `${dir}/${name}`;
}

/** A package `fix` cannot migrate: the function reports it as an error result. */
export class FixError extends Error {}

/** What a `fix` run collects: its results and the setters ConfigMaps it creates; comment rewriting. */
export class Fixer {
  readonly results: FunctionResult[] = [];
  readonly settersConfigs: KrmResource[] = [];

  result(filePath: string, message: string): void {
    this.results.push({ message, file: { path: filePath } });
  }

  /** The setter and substitution definitions of a Kptfile's `openAPI.definitions`. */
  static definitions(kptfile: KrmResource): Json {
    return obj(obj(obj(toJs(kptfile.contents)).openAPI).definitions);
  }

  /** The `# kpt-set:` pattern for a field whose old comment references a definition, or undefined. */
  pattern(comment: string, defs: Json): string | undefined {
    let parsed: Json;
    try {
      parsed = obj(JSON.parse(comment.replace(/^[#\s]+/, "")));
    } catch {
      return undefined;
    }
    let def: Json | undefined;
    const name = parsed["$kpt-set"];
    if (typeof name === "string" && name !== "") {
      def = defs[`${SETTER_PREFIX}${name}`] as Json | undefined;
      def ??= defs[`${SUBST_PREFIX}${name}`] as Json | undefined;
    } else if (typeof parsed.$ref === "string") {
      def = defs[parsed.$ref.replace(/^#\/definitions\//, "")] as Json | undefined;
    }
    if (!def) return undefined;
    const ext = obj(obj(def)["x-k8s-cli"]);
    if (ext.setter) return `\${${String(obj(ext.setter).name ?? "")}}`;
    if (ext.substitution) return this.substitute(obj(ext.substitution), defs, new Set());
    return undefined;
  }

  private substitute(subst: Json, defs: Json, visited: Set<string>): string {
    const name = String(subst.name ?? "");
    if (visited.has(name)) throw new FixError(`cyclic substitution detected with name ${name}`);
    visited.add(name);
    let pattern = String(subst.pattern ?? "");
    for (const value of Array.isArray(subst.values) ? subst.values : []) {
      const v = obj(value);
      const ref = typeof v.ref === "string" ? v.ref : "";
      if (ref === "") throw new FixError(`missing reference on substitution ${name}`);
      const ext = obj(obj(defs[ref.replace(/^#\/definitions\//, "")])["x-k8s-cli"]);
      const marker = String(v.marker ?? "");
      if (ext.substitution) {
        pattern = pattern.replaceAll(marker, this.substitute(obj(ext.substitution), defs, visited));
        continue;
      }
      const setter = obj(ext.setter);
      const enumValues = obj(setter.enumValues);
      const current = String(setter.value ?? "");
      pattern = pattern.replaceAll(
        marker,
        Object.hasOwn(enumValues, current) ? String(enumValues[current]) : `\${${String(setter.name ?? "")}}`,
      );
    }
    return pattern;
  }

  /** Rewrites the old setter comments of one resource. */
  fixComments(doc: KrmResource, defs: Json): void {
    walkFields(doc.contents, "", {
      map: (map: YAMLMap) => {
        for (const pair of map.items) {
          if (!isSeq(pair.value) || !isScalar(pair.key)) continue;
          const key = pair.key as Scalar;
          const comment = `#${key.comment ?? pair.value.commentBefore ?? ""}`;
          for (const prefix of ['# {"$kpt-set":"', '# {"$ref":"#/definitions/io.k8s.cli.']) {
            if (!comment.includes(prefix)) continue;
            const name = comment.slice(comment.indexOf(prefix) + prefix.length).replace(/"}\s*$/, "");
            key.comment = ` kpt-set: \${${name}}`;
            pair.value.commentBefore = undefined;
          }
        }
      },
      scalar: (node: Scalar) => {
        for (const comment of [node.comment, node.commentBefore]) {
          if (!comment) continue;
          const pattern = this.pattern(comment, defs);
          if (pattern !== undefined) node.comment = ` kpt-set: ${pattern}`;
          return;
        }
      },
    });
  }

  settersConfig(setters: Map<string, string>, path: string): KrmResource {
    const data: Json = {};
    // The catalog formats the new ConfigMap with kyaml's FormatFilter: data keys in kyaml's field order.
    for (const key of [...setters.keys()].sort(compareFieldNames)) {
      const value = setters.get(key) ?? "";
      data[key] = value.startsWith("[")
        ? `${value
            .slice(1, -1)
            .split(",")
            .map((v) => `- ${v.trim()}`)
            .join("\n")}\n`
        : value;
    }
    return new Document({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        name: "setters",
        annotations: { [INTERNAL_PATH]: path, "internal.config.kubernetes.io/index": "0" },
      },
      data,
    }) as KrmResource;
  }
}
