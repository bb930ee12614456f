/**
 * `fix` (krm-functions-catalog): migrates a kpt v0.x package (`kpt.dev/v1alpha1` Kptfile) to kpt 1.0:
 * - the Kptfile becomes `kpt.dev/v1`: `packageMetadata` → `info`, `upstream` → `upstream` (with
 *   `updateStrategy: resource-merge`) + `upstreamLock`, `inventory` kept, `dependencies` and `openAPI`
 *   dropped; a `kpt.dev/v1alpha2` Kptfile only gets its apiVersion (and its `apply-setters` configMap moved
 *   to `setters.yaml`);
 * - the OpenAPI setters become a `setters.yaml` ConfigMap next to the Kptfile and an
 *   `apply-setters:v0.2` mutator using it; field comments `# {"$kpt-set":"name"}` / `# {"$ref": …}` become
 *   `# kpt-set: ${name}` (substitutions become their pattern, e.g. `${image}:${tag}`);
 * - resources annotated with a `config.kubernetes.io/function` container become mutators with
 *   `configPath: <name>.yaml` (the resource moves to that file, the annotation goes).
 * Each change is an info result naming the file.
 */
import { Document, isMap, isScalar, isSeq, parse, type Scalar, type YAMLMap } from "yaml";
import { INTERNAL_PATH, LEGACY_PATH } from "../../krm/annotations.js";
import type { FunctionResult, KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { compareFieldNames } from "./kyaml-field-order.js";
import { fileOf, getMap, getString, setString, toJs, walkFields } from "./yaml-nodes.js";

const V1 = "kpt.dev/v1";
const SETTERS_FILE = "setters.yaml";
const SETTER_PREFIX = "io.k8s.cli.setters.";
const SUBST_PREFIX = "io.k8s.cli.substitutions.";
const FUNCTION_ANNOTATIONS = ["config.kubernetes.io/function", "config.k8s.io/function"];

type Json = Record<string, unknown>;

function obj(value: unknown): Json {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "." : path.slice(0, slash);
}

function join(dir: string, name: string): string {
  return dir === "." || dir === "" ? name : `${dir}/${name}`;
}

class FixError extends Error {}

class Fixer {
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

  /** The v1 Kptfile for a v1alpha1 one. */
  fixKptfile(kptfile: KrmResource, functions: Json[]): KrmResource {
    const path = fileOf(kptfile)?.path ?? "Kptfile";
    const apiVersion = getString(kptfile, ["apiVersion"]) ?? "";
    const settersPath = join(dirOf(path), SETTERS_FILE);
    if (apiVersion.includes("v1alpha2")) {
      setString(kptfile, ["apiVersion"], V1);
      this.result(path, `Updated apiVersion to ${V1}`);
      const mutators = getMap(kptfile, ["pipeline"])?.get("mutators", true);
      for (const step of isSeq(mutators) ? mutators.items : []) {
        if (!isMap(step) || !(getString(step, ["image"]) ?? "").includes("gcr.io/kpt-fn/apply-setters:"))
          continue;
        const configMap = getMap(step, ["configMap"]);
        if (!configMap || configMap.items.length === 0) continue;
        const setters = new Map(Object.entries(obj(configMap.toJSON())).map(([k, v]) => [k, String(v)]));
        this.settersConfigs.push(this.settersConfig(setters, settersPath));
        step.delete("configMap");
        step.set("configPath", SETTERS_FILE);
        this.result(settersPath, "Moved setters from configMap to configPath");
      }
      return kptfile;
    }
    if (apiVersion === V1) {
      this.result(path, `This package is already fixed as it is on latest apiVersion ${V1}`);
      return kptfile;
    }
    const old = obj(toJs(kptfile.contents));
    const out: Json = { apiVersion: V1, kind: "Kptfile", metadata: old.metadata ?? {} };
    const upstream = obj(old.upstream);
    if (old.upstream) {
      const git = obj(upstream.git);
      out.upstream = {
        type: upstream.type,
        git: { repo: git.repo, directory: git.directory, ref: git.ref },
        updateStrategy: "resource-merge",
      };
      out.upstreamLock = {
        type: upstream.type,
        git: { repo: git.repo, directory: git.directory, ref: git.ref, commit: git.commit },
      };
    }
    if (old.packageMetadata) {
      const meta = obj(old.packageMetadata);
      const info: Json = {};
      if (meta.url) info.site = meta.url;
      if (meta.email) info.emails = [meta.email];
      if (meta.license) info.license = meta.license;
      if (meta.shortDescription) info.description = meta.shortDescription;
      if (meta.tags) info.keywords = meta.tags;
      if (meta.man) info.man = meta.man;
      out.info = info;
      this.result(path, 'Transformed "packageMetadata" to "info"');
    }
    if (old.upstream) this.result(path, 'Transformed "upstream" to "upstream" and "upstreamLock"');
    const setters = new Map<string, string>();
    for (const [key, def] of Object.entries(Fixer.definitions(kptfile))) {
      if (!key.startsWith(SETTER_PREFIX)) continue;
      const setter = obj(obj(obj(def)["x-k8s-cli"]).setter);
      if (Object.keys(setter).length === 0) throw new FixError(`missing x-k8s-cli.setter for ${key}`);
      const list = Array.isArray(setter.listValues) ? setter.listValues.map(String) : [];
      setters.set(
        String(setter.name ?? ""),
        list.length > 0 ? `[${list.join(", ")}]` : String(setter.value ?? ""),
      );
    }
    for (const fn of functions) {
      this.result(
        path,
        `Added ${JSON.stringify(fn.image)} to mutators list, please move it to validators section if it is a validator function`,
      );
    }
    const mutators: Json[] = [];
    if (setters.size > 0) {
      mutators.push({ image: "gcr.io/kpt-fn/apply-setters:v0.2", configPath: SETTERS_FILE });
      this.settersConfigs.push(this.settersConfig(setters, settersPath));
      this.result(path, 'Transformed "openAPI" definitions to "apply-setters" function');
    }
    mutators.push(...functions);
    out.pipeline = mutators.length > 0 ? { mutators } : {};
    if (old.inventory) out.inventory = old.inventory;
    return new Document(out) as KrmResource;
  }
}

/** The nearest directory at or above `file`'s that holds a Kptfile. */
function packageOf(file: string, packages: ReadonlySet<string>): string | undefined {
  let dir = dirOf(file);
  for (;;) {
    if (packages.has(dir)) return dir;
    if (dir === "." || dir === "") return undefined;
    dir = dirOf(dir);
  }
}

/** The builtin `fix`. */
export const fix: BuiltinFunction = {
  name: "fix",
  catalogVersion: "v0.2.1",
  run(input) {
    const fixer = new Fixer();
    const isKptfile = (doc: KrmResource) => getString(doc, ["kind"]) === "Kptfile";
    const kptfiles = input.items.filter(isKptfile);
    const packages = new Set(kptfiles.map((k) => dirOf(fileOf(k)?.path ?? "Kptfile")));
    const defsByPackage = new Map(
      kptfiles.map((k) => [dirOf(fileOf(k)?.path ?? "Kptfile"), Fixer.definitions(k)]),
    );
    const functionsByPackage = new Map<string, Json[]>();
    try {
      if (kptfiles.length === 0) {
        throw new FixError(
          "Kptfile not found in directory tree, make sure you specify '--include-meta-resources' flag",
        );
      }
      for (const doc of input.items) {
        if (isKptfile(doc)) continue;
        const path = fileOf(doc)?.path ?? "";
        const pkg = packageOf(path, packages);
        const annotations = getMap(doc, ["metadata", "annotations"]);
        const spec = FUNCTION_ANNOTATIONS.map((k) => getString(annotations, [k])).find(
          (v) => v !== undefined,
        );
        if (pkg !== undefined && spec !== undefined && annotations) {
          const image = String(obj(obj(parseSpec(spec)).container).image ?? "");
          if (image !== "") {
            const name = getString(doc, ["metadata", "name"]) ?? "";
            const list = functionsByPackage.get(pkg) ?? [];
            list.push({ image, configPath: `${name}.yaml` });
            functionsByPackage.set(pkg, list);
            for (const k of FUNCTION_ANNOTATIONS) annotations.delete(k);
            for (const k of [INTERNAL_PATH, LEGACY_PATH]) {
              if (annotations.has(k)) annotations.set(k, join(pkg, `${name}.yaml`));
            }
          }
        }
      }
      const items = input.items.map((doc) => {
        if (isKptfile(doc)) {
          const pkg = dirOf(fileOf(doc)?.path ?? "Kptfile");
          const fixed = fixer.fixKptfile(doc, functionsByPackage.get(pkg) ?? []);
          if (fixed !== doc) copyAnnotations(doc, fixed);
          return fixed;
        }
        const labels = getMap(doc, ["metadata", "labels"]);
        if (getString(labels, ["cli-utils.sigs.k8s.io/inventory-id"])) {
          fixer.result(
            fileOf(doc)?.path ?? "",
            'Please refer to https://googlecontainertools.github.io/kpt/reference/live/alpha/, this package is using "inventory-object"',
          );
          return doc;
        }
        const pkg = packageOf(fileOf(doc)?.path ?? "", packages);
        fixer.fixComments(doc, pkg === undefined ? {} : (defsByPackage.get(pkg) ?? {}));
        return doc;
      });
      return { items: [...items, ...fixer.settersConfigs], results: fixer.results };
    } catch (err) {
      if (!(err instanceof FixError)) throw err;
      const message = `failed to fix package: ${err.message}`;
      return { items: input.items, results: [{ message, severity: "error" }], stderr: err.message };
    }
  },
};

/** A function annotation's value (`container: {image: …}`), parsed as YAML (an unparsable one is empty). */
function parseSpec(text: string): unknown {
  try {
    return parse(text);
  } catch {
    return {};
  }
}

/** Keeps the pipeline annotations (path, index) of the original Kptfile on its replacement. */
function copyAnnotations(from: KrmResource, to: KrmResource): void {
  const annotations = getMap(from, ["metadata", "annotations"]);
  if (!annotations) return;
  for (const pair of annotations.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const value = isScalar(pair.value) ? pair.value.value : pair.value;
    if (value !== undefined && value !== null) setString(to, ["metadata", "annotations", key], String(value));
  }
}
