/**
 * Config Connector (`*.cnrm.cloud.google.com`) schemas, from the registry package
 * `@kubernetes-models/gke` 4.3.0 (one file per kind, `<group>/<version>/<Kind>.js`, holding the CRD's
 * schema as `const schema = {…}`; read as data, nothing fetched). The catalog's `kubeval` image ships
 * the same kinds (its baked-in document is a GKE cluster's OpenAPI v2 with Config Connector installed),
 * so kubeval validates them instead of reporting a missing schema.
 *
 * A schema is shaped as the Kubernetes API server publishes a CRD in OpenAPI v2, which is what the
 * catalog's schemas were generated from: `oneOf`, `anyOf`, `allOf` and `not` are dropped (v2 has no
 * place for them); types, properties, `required`, `enum` and `items` stay. `$ref`s name definitions of
 * the Kubernetes document being validated against (only `ObjectMeta` is referenced). Fields named
 * `description`, which the package's generator dropped with the documentation text, are restored from
 * the kind's type declarations (`./description-fields.ts`).
 *
 * Loading is lazy and per kind: a kind's file is read on its first lookup and kept.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { declaredDescriptionFields, restoreDescriptionFields } from "./description-fields.js";
import { fromModelSchema, type OpenApiSchema } from "./kubernetes.js";

const PACKAGE = "@kubernetes-models/gke";
const GROUP_SUFFIX = ".cnrm.cloud.google.com";
const SCHEMA_LITERAL = /\bconst schema = (\{[\s\S]*?\n\});\n/;
const SCHEMA_ID = /\bconst schemaId = "([^"]+)";/;
const COMPOSITION = new Set(["oneOf", "anyOf", "allOf", "not"]);

let packageDir: string | undefined;
const cache = new Map<string, { name: string; schema: OpenApiSchema } | null>();

function gkeDir(): string {
  if (!packageDir) packageDir = dirname(createRequire(import.meta.url).resolve(PACKAGE));
  return packageDir;
}

/** The schema without the composition keywords OpenAPI v2 publishing drops. */
function asPublishedV2(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asPublishedV2);
  if (node === null || typeof node !== "object") return node;
  const out: OpenApiSchema = {};
  for (const [key, value] of Object.entries(node as OpenApiSchema)) {
    if (COMPOSITION.has(key)) continue;
    // `properties` maps field names to schemas: a field may be called `not` or `oneOf`.
    out[key] =
      key === "properties" && value && typeof value === "object" && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asPublishedV2(v)]))
        : asPublishedV2(value);
  }
  return out;
}

/** A kind's type declarations (where its `description` fields survive), or "" when absent. */
function readDeclarations(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw err;
  }
}

/**
 * The schema of a Config Connector kind (`compute.cnrm.cloud.google.com/v1beta1`, `ComputeNetwork`)
 * with its definition name (`compute.cnrm.cloud.google.com.v1beta1.ComputeNetwork`), or undefined when
 * the apiVersion is no Config Connector group or the package does not define the kind.
 */
export function configConnectorSchema(
  apiVersion: string,
  kind: string,
): { name: string; schema: OpenApiSchema } | undefined {
  const slash = apiVersion.indexOf("/");
  const group = slash < 0 ? "" : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  if (!group.endsWith(GROUP_SUFFIX) || !/^[a-z0-9.-]+$/.test(group)) return undefined;
  if (!/^v[0-9a-z]+$/.test(version) || !/^[A-Za-z0-9]+$/.test(kind)) return undefined;
  const key = `${group}/${version}/${kind}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached ?? undefined;
  let found: { name: string; schema: OpenApiSchema } | null = null;
  try {
    const file = join(gkeDir(), group, version, kind);
    const text = readFileSync(`${file}.js`, "utf8");
    const literal = SCHEMA_LITERAL.exec(text)?.[1];
    const name = SCHEMA_ID.exec(text)?.[1];
    if (literal && name) {
      const schema = asPublishedV2(fromModelSchema(JSON.parse(literal))) as OpenApiSchema;
      restoreDescriptionFields(schema, declaredDescriptionFields(readDeclarations(`${file}.d.ts`)));
      found = { name, schema };
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  cache.set(key, found);
  return found ?? undefined;
}
