/**
 * `kubeconform` and `kubeval` (krm-functions-catalog): validate every resource against its Kubernetes
 * schema, offline, with the schemas of `src/schemas/kubernetes.ts`. Each invalid field is an `error`
 * result naming the resource, the field (`spec.replicas`) and the file, worded as the tool the
 * catalog's image wraps words it: kubeconform 0.7 (santhosh-tekuri/jsonschema v6,
 * `got string, want null or integer`) or kubeval 0.16 (gojsonschema,
 * `Invalid type. Expected: [integer,null], given: string`).
 *
 * functionConfig: a ConfigMap (or any object) with `strict`, `skip_kinds` (comma-separated kinds or
 * `apiVersion/kind`s), `ignore_missing_schemas`, `kubernetes_version` (a shipped version, or a minor
 * such as `1.16`; default the newest shipped). `schema_location`, `schema_locations` and
 * `additional_schema_locations` need network or mounts and are refused with an error result.
 * kubeval also validates Config Connector resources (`src/schemas/config-connector.ts`), whose schemas
 * the catalog's kubeval image ships; kubeconform, like the catalog's, has none for them.
 */
import type { FunctionResult, KrmResource } from "../../krm/resource-list.js";
import { configConnectorSchema } from "../../schemas/config-connector.js";
import {
  quoteSingle,
  type SchemaError,
  TYPE_ORDER,
  validateAgainstSchema,
} from "../../schemas/json-schema.js";
import { kindSchema, kubernetesVersions, resolveKubernetesVersion } from "../../schemas/kubernetes.js";
import type { BuiltinFunction, BuiltinFunctionOutput } from "./builtin-function.js";
import { fileOf, getMap, getString, groupOf, resourceRef, scalarString, toJs } from "./yaml-nodes.js";

interface ValidatorConfig {
  strict: boolean;
  ignoreMissingSchemas: boolean;
  skipKinds: string[];
  version: string;
}

const LOCATION_KEYS = ["schema_location", "schema_locations", "additional_schema_locations"];

/** A key of the config: top-level field first, then `data.<key>` (the catalog's `extractConfig`). */
function configValue(fc: KrmResource | undefined, key: string): string {
  const top = scalarString(getMap(fc)?.get(key, true));
  if (top !== undefined && top !== "") return top;
  return getString(getMap(fc, ["data"]), [key]) ?? "";
}

function configBool(fc: KrmResource | undefined, key: string): boolean {
  const value = configValue(fc, key).trim().toLowerCase();
  return value === "true" || value === "1";
}

function readConfig(fc: KrmResource | undefined): ValidatorConfig | string {
  for (const key of LOCATION_KEYS) {
    if (configValue(fc, key) !== "") {
      const shipped = kubernetesVersions();
      return (
        `${key} is not supported by the builtin: it validates offline against the Kubernetes schemas it ships ` +
        `(${shipped[0]} to ${shipped[shipped.length - 1]}); remove ${key}, or run the function's image with a container runtime`
      );
    }
  }
  const requested = configValue(fc, "kubernetes_version");
  const version = resolveKubernetesVersion(requested);
  if (!version) {
    return `kubernetes_version ${JSON.stringify(requested)}: no schemas ship for it (available: ${kubernetesVersions().join(", ")})`;
  }
  const skip = configValue(fc, "skip_kinds");
  return {
    strict: configBool(fc, "strict"),
    ignoreMissingSchemas: configBool(fc, "ignore_missing_schemas"),
    skipKinds: skip === "" ? [] : skip.split(",").map((k) => k.trim()),
    version,
  };
}

interface ResourceInfo {
  doc: KrmResource;
  apiVersion: string;
  kind: string;
}

function skipped(info: ResourceInfo, config: ValidatorConfig): boolean {
  return config.skipKinds.some((k) => k === info.kind || k === `${info.apiVersion}/${info.kind}`);
}

function fieldResult(message: string, doc: KrmResource, fieldPath: string): FunctionResult {
  const result: FunctionResult = { message, severity: "error", resourceRef: resourceRef(doc) };
  if (fieldPath !== "") result.field = { path: fieldPath };
  const file = fileOf(doc);
  if (file) result.file = file;
  return result;
}

/**
 * Runs a validator over every item; `check` returns the results for one resource with a schema.
 * `customResources` also validates Config Connector kinds (the schemas the catalog's kubeval ships).
 */
function runValidator(
  fc: KrmResource | undefined,
  items: KrmResource[],
  check: (info: ResourceInfo, error: SchemaError) => FunctionResult[],
  missing: (info: ResourceInfo, config: ValidatorConfig) => FunctionResult[],
  customResources = false,
): BuiltinFunctionOutput {
  const config = readConfig(fc);
  if (typeof config === "string") {
    return { items, results: [{ message: config, severity: "error" }] };
  }
  const results: FunctionResult[] = [];
  for (const doc of items) {
    const info: ResourceInfo = {
      doc,
      apiVersion: getString(doc, ["apiVersion"]) ?? "",
      kind: getString(doc, ["kind"]) ?? "",
    };
    if (skipped(info, config)) continue;
    const schema =
      kindSchema(info.apiVersion, info.kind, config.version) ??
      (customResources ? configConnectorSchema(info.apiVersion, info.kind) : undefined);
    if (!schema) {
      if (!config.ignoreMissingSchemas) results.push(...missing(info, config));
      continue;
    }
    const error = validateAgainstSchema(schema.schema, toJs(doc.contents), {
      version: config.version,
      strict: config.strict,
    });
    if (error) results.push(...check(info, error));
  }
  return { items, results };
}

// kubeconform -----------------------------------------------------------------------------------

function kubeconformMessage(error: SchemaError): string {
  const kind = error.kind;
  switch (kind.keyword) {
    case "type": {
      const want = TYPE_ORDER.filter((t) => kind.want.includes(t));
      return `got ${kind.got}, want ${want.join(" or ")}`;
    }
    case "enum": {
      if (kind.want.some((v) => v !== null && typeof v === "object")) return "enum failed";
      const shown = kind.want.map((v) => (typeof v === "string" ? quoteSingle(v) : String(v)));
      return shown.length === 1 ? `value must be ${shown[0]}` : `value must be one of ${shown.join(", ")}`;
    }
    case "required":
      return kind.missing.length === 1
        ? `missing property ${quoteSingle(kind.missing[0])}`
        : `missing properties ${kind.missing.map(quoteSingle).join(", ")}`;
    case "additionalProperties":
      return `additional properties ${kind.properties.map(quoteSingle).join(", ")} not allowed`;
    case "oneOf":
      return kind.matched.length === 0
        ? "oneOf failed, none matched"
        : `oneOf failed, subschemas ${kind.matched[0]}, ${kind.matched[1]} matched`;
    case "group":
      return "validation failed";
  }
}

/** The builtin `kubeconform`: kubeconform's top-level validation errors, one result each. */
export const kubeconform: BuiltinFunction = {
  name: "kubeconform",
  catalogVersion: "latest",
  run(input) {
    return runValidator(
      input.functionConfig,
      input.items,
      (info, error) => {
        // kubeconform reports the causes of the schema's root error: the root's own errors.
        const top = error.kind.keyword === "group" ? (error.causes ?? []) : [error];
        return top.map((e) => fieldResult(kubeconformMessage(e), info.doc, e.path.join(".")));
      },
      // kubeconform reports a resource without a schema as a status, not a validation error: the
      // catalog's function passes it by.
      () => [],
    );
  },
};

// kubeval -----------------------------------------------------------------------------------------

interface FlatError {
  field: string;
  message: string;
}

function jsonTypeForKubeval(value: unknown, got: string): string {
  if (got === "number" && Number.isInteger(value)) return "integer";
  return got;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** gojsonschema's flat error list: per node required, additional properties, then the fields below. */
function flattenForKubeval(error: SchemaError, root: unknown, out: FlatError[]): void {
  const context = error.path.length === 0 ? "(root)" : error.path.join(".");
  const kind = error.kind;
  switch (kind.keyword) {
    case "group": {
      const causes = error.causes ?? [];
      const rank = (e: SchemaError) =>
        e.path.length === error.path.length
          ? e.kind.keyword === "required"
            ? 0
            : e.kind.keyword === "additionalProperties"
              ? 1
              : 2
          : 2;
      const ordered = [...causes].sort((a, b) => rank(a) - rank(b));
      for (const cause of ordered) flattenForKubeval(cause, root, out);
      return;
    }
    case "type": {
      const expected = kind.want.length === 1 ? kind.want[0] : `[${kind.want.join(",")}]`;
      const given = jsonTypeForKubeval(valueAt(root, error.path), kind.got);
      out.push({ field: context, message: `Invalid type. Expected: ${expected}, given: ${given}` });
      return;
    }
    case "enum": {
      const allowed = kind.want.map((v) => JSON.stringify(v)).join(", ");
      out.push({ field: context, message: `${context} must be one of the following: ${allowed}` });
      return;
    }
    case "required":
      for (const name of kind.missing) out.push({ field: name, message: `${name} is required` });
      return;
    case "additionalProperties":
      for (const name of kind.properties) {
        out.push({ field: name, message: `Additional property ${name} is not allowed` });
      }
      return;
    case "oneOf":
      out.push({ field: context, message: "Must validate one and only one schema (oneOf)" });
      if (kind.matched.length === 0 && error.causes?.[0]) flattenForKubeval(error.causes[0], root, out);
      return;
  }
}

/** The builtin `kubeval`: every gojsonschema error, one result each (`field.path` as kubeval prints it). */
export const kubeval: BuiltinFunction = {
  name: "kubeval",
  catalogVersion: "v0.3.0",
  run(input) {
    const out = runValidator(
      input.functionConfig,
      input.items,
      (info, error) => {
        const flat: FlatError[] = [];
        flattenForKubeval(error, toJs(info.doc.contents), flat);
        return flat.map((e) => fieldResult(e.message, info.doc, e.field));
      },
      (info, config) => {
        // kpt's own Kptfile has a schema in the catalog's image; the engine validates it here.
        if (info.kind === "Kptfile" && groupOf(info.apiVersion) === "kpt.dev") return [];
        const message =
          "Validating arbitrary CRDs is not supported yet. You can skip them by setting ignore_missing_schemas or skip_kinds in the function config:\n" +
          `Failed initializing schema for ${info.apiVersion}/${info.kind}: Kubernetes ${config.version} does not define it`;
        return [fieldResult(message, info.doc, "")];
      },
      true,
    );
    // The catalog's TypeScript SDK writes nothing to stderr when it reports results.
    return { ...out, stderr: "" };
  },
};
