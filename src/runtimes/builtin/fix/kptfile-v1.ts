/**
 * The `fix` function's Kptfile migration to `kpt.dev/v1`: a `v1alpha2` Kptfile gets its apiVersion
 * (and its `apply-setters` configMap moved to `setters.yaml`); a `v1alpha1` one is rebuilt:
 * `packageMetadata` → `info`, `upstream` → `upstream` + `upstreamLock`, OpenAPI setters → an
 * `apply-setters` mutator with `setters.yaml`, the package's function resources → mutators.
 */
import { Document, isMap, isSeq } from "yaml";
import type { KrmResource } from "../../../krm/resource-list.js";
import { fileOf, getMap, getString, setString, toJs } from "../yaml-nodes.js";
import { dirOf, FixError, Fixer, type Json, join, obj, SETTER_PREFIX, SETTERS_FILE, V1 } from "./fixer.js";

/** `v1alpha2`: the apiVersion, and each `apply-setters` step's configMap moved to `setters.yaml`. */
function fixV1alpha2(fixer: Fixer, kptfile: KrmResource, path: string, settersPath: string): KrmResource {
  setString(kptfile, ["apiVersion"], V1);
  fixer.result(path, `Updated apiVersion to ${V1}`);
  const mutators = getMap(kptfile, ["pipeline"])?.get("mutators", true);
  for (const step of isSeq(mutators) ? mutators.items : []) {
    if (!isMap(step) || !(getString(step, ["image"]) ?? "").includes("gcr.io/kpt-fn/apply-setters:"))
      continue;
    const configMap = getMap(step, ["configMap"]);
    if (!configMap || configMap.items.length === 0) continue;
    const setters = new Map(Object.entries(obj(configMap.toJSON())).map(([k, v]) => [k, String(v)]));
    fixer.settersConfigs.push(fixer.settersConfig(setters, settersPath));
    step.delete("configMap");
    step.set("configPath", SETTERS_FILE);
    fixer.result(settersPath, "Moved setters from configMap to configPath");
  }
  return kptfile;
}

/** `upstream` (with `updateStrategy: resource-merge`) and `upstreamLock` from a v1alpha1 `upstream`. */
function upstreamFields(old: Json, out: Json): void {
  const upstream = obj(old.upstream);
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

/** `info` from a v1alpha1 `packageMetadata`. */
function infoOf(packageMetadata: unknown): Json {
  const meta = obj(packageMetadata);
  const info: Json = {};
  if (meta.url) info.site = meta.url;
  if (meta.email) info.emails = [meta.email];
  if (meta.license) info.license = meta.license;
  if (meta.shortDescription) info.description = meta.shortDescription;
  if (meta.tags) info.keywords = meta.tags;
  if (meta.man) info.man = meta.man;
  return info;
}

/** The OpenAPI setters of a v1alpha1 Kptfile: name → value (a list as `[a, b]`). Throws {@link FixError}. */
function settersOf(kptfile: KrmResource): Map<string, string> {
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
  return setters;
}

/** The v1 Kptfile rebuilt from a v1alpha1 one, with `functions` (the package's function resources) as mutators. */
function fixV1alpha1(
  fixer: Fixer,
  kptfile: KrmResource,
  functions: Json[],
  path: string,
  settersPath: string,
) {
  const old = obj(toJs(kptfile.contents));
  const out: Json = { apiVersion: V1, kind: "Kptfile", metadata: old.metadata ?? {} };
  if (old.upstream) upstreamFields(old, out);
  if (old.packageMetadata) {
    out.info = infoOf(old.packageMetadata);
    fixer.result(path, 'Transformed "packageMetadata" to "info"');
  }
  if (old.upstream) fixer.result(path, 'Transformed "upstream" to "upstream" and "upstreamLock"');
  const setters = settersOf(kptfile);
  for (const fn of functions) {
    fixer.result(
      path,
      `Added ${JSON.stringify(fn.image)} to mutators list, please move it to validators section if it is a validator function`,
    );
  }
  const mutators: Json[] = [];
  if (setters.size > 0) {
    mutators.push({ image: "gcr.io/kpt-fn/apply-setters:v0.2", configPath: SETTERS_FILE });
    fixer.settersConfigs.push(fixer.settersConfig(setters, settersPath));
    fixer.result(path, 'Transformed "openAPI" definitions to "apply-setters" function');
  }
  mutators.push(...functions);
  out.pipeline = mutators.length > 0 ? { mutators } : {};
  if (old.inventory) out.inventory = old.inventory;
  return new Document(out) as KrmResource;
}

/** The v1 Kptfile for a v1alpha1 or v1alpha2 one (the same document when only its fields change). */
export function fixKptfile(fixer: Fixer, kptfile: KrmResource, functions: Json[]): KrmResource {
  const path = fileOf(kptfile)?.path ?? "Kptfile";
  const apiVersion = getString(kptfile, ["apiVersion"]) ?? "";
  const settersPath = join(dirOf(path), SETTERS_FILE);
  if (apiVersion.includes("v1alpha2")) return fixV1alpha2(fixer, kptfile, path, settersPath);
  if (apiVersion === V1) {
    fixer.result(path, `This package is already fixed as it is on latest apiVersion ${V1}`);
    return kptfile;
  }
  return fixV1alpha1(fixer, kptfile, functions, path, settersPath);
}
