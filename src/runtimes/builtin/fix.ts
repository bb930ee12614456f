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
import { isScalar, parse } from "yaml";
import { INTERNAL_PATH, LEGACY_PATH } from "../../krm/annotations.js";
import type { KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { dirOf, FixError, Fixer, FUNCTION_ANNOTATIONS, type Json, join, obj } from "./fix/fixer.js";
import { fixKptfile } from "./fix/kptfile-v1.js";
import { fileOf, getMap, getString, setString } from "./yaml-nodes.js";

/** The nearest directory at or above `file`'s that holds a Kptfile. */
function packageOf(file: string, packages: ReadonlySet<string>): string | undefined {
  let dir = dirOf(file);
  for (;;) {
    if (packages.has(dir)) return dir;
    if (dir === "." || dir === "") return undefined;
    dir = dirOf(dir);
  }
}

/** The function resources of each package (`config.kubernetes.io/function` containers), their annotation removed. */
function collectFunctions(items: readonly KrmResource[], packages: ReadonlySet<string>): Map<string, Json[]> {
  const functionsByPackage = new Map<string, Json[]>();
  for (const doc of items) {
    if (isKptfile(doc)) continue;
    const path = fileOf(doc)?.path ?? "";
    const pkg = packageOf(path, packages);
    const annotations = getMap(doc, ["metadata", "annotations"]);
    const spec = FUNCTION_ANNOTATIONS.map((k) => getString(annotations, [k])).find((v) => v !== undefined);
    if (pkg === undefined || spec === undefined || !annotations) continue;
    const image = String(obj(obj(parseSpec(spec)).container).image ?? "");
    if (image === "") continue;
    const name = getString(doc, ["metadata", "name"]) ?? "";
    const list = functionsByPackage.get(pkg) ?? [];
    list.push({ image, configPath: `${name}.yaml` });
    functionsByPackage.set(pkg, list);
    for (const k of FUNCTION_ANNOTATIONS) annotations.delete(k);
    for (const k of [INTERNAL_PATH, LEGACY_PATH]) {
      if (annotations.has(k)) annotations.set(k, join(pkg, `${name}.yaml`));
    }
  }
  return functionsByPackage;
}

const isKptfile = (doc: KrmResource) => getString(doc, ["kind"]) === "Kptfile";

/** One item fixed: a Kptfile migrated, an inventory object reported, other resources' comments migrated. */
function fixItem(
  fixer: Fixer,
  doc: KrmResource,
  context: {
    packages: ReadonlySet<string>;
    defsByPackage: Map<string, Json>;
    functionsByPackage: Map<string, Json[]>;
  },
): KrmResource {
  if (isKptfile(doc)) {
    const pkg = dirOf(fileOf(doc)?.path ?? "Kptfile");
    const fixed = fixKptfile(fixer, doc, context.functionsByPackage.get(pkg) ?? []);
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
  const pkg = packageOf(fileOf(doc)?.path ?? "", context.packages);
  fixer.fixComments(doc, pkg === undefined ? {} : (context.defsByPackage.get(pkg) ?? {}));
  return doc;
}

/** The builtin `fix`. */
export const fix: BuiltinFunction = {
  name: "fix",
  catalogVersion: "v0.2.1",
  run(input) {
    const fixer = new Fixer();
    const kptfiles = input.items.filter(isKptfile);
    const packages = new Set(kptfiles.map((k) => dirOf(fileOf(k)?.path ?? "Kptfile")));
    const defsByPackage = new Map(
      kptfiles.map((k) => [dirOf(fileOf(k)?.path ?? "Kptfile"), Fixer.definitions(k)]),
    );
    try {
      if (kptfiles.length === 0) {
        throw new FixError(
          "Kptfile not found in directory tree, make sure you specify '--include-meta-resources' flag",
        );
      }
      const functionsByPackage = collectFunctions(input.items, packages);
      const context = { packages, defsByPackage, functionsByPackage };
      const items = input.items.map((doc) => fixItem(fixer, doc, context));
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
