/**
 * Validation of a resource against its Kubernetes schema (from `./kubernetes.ts`), the way the catalog's
 * validators see those schemas: the `-standalone` JSON schemas that openapi2jsonschema derives from
 * the OpenAPI definitions (`$ref`s followed, `null` allowed for optional fields) and, in strict mode,
 * the `-standalone-strict` ones (no property the schema does not list).
 *
 * It returns the error tree of santhosh-tekuri/jsonschema (the validator kubeconform uses); the
 * kubeconform and kubeval builtins word it as their tools do. We evaluate the schemas ourselves rather
 * than through a JSON Schema library because the results must be the Go tools' own, error for error:
 * which errors group under a node, which keyword stops a node's validation, in which order they come.
 * Only the keywords Kubernetes' definitions use are evaluated (`type`, `nullable`, `enum`, `required`,
 * `properties`, `additionalProperties`, `items`, `oneOf`, `$ref`); `format` is not asserted (as in both
 * tools).
 */
import { dereference, type OpenApiSchema } from "./kubernetes.js";

/** The JSON type names of JSON Schema. */
export type JsonType = "null" | "boolean" | "number" | "integer" | "string" | "array" | "object";

/** What failed at one place. `group` gathers several errors below one node (jsonschema's `Group`). */
export type SchemaErrorKind =
  /** `want` in the schema's order, `null` last when the field is optional. */
  | { keyword: "type"; got: JsonType; want: JsonType[] }
  | { keyword: "enum"; got: unknown; want: unknown[] }
  | { keyword: "required"; missing: string[] }
  | { keyword: "additionalProperties"; properties: string[] }
  | { keyword: "oneOf"; matched: number[] }
  | { keyword: "group" };

/** One node of the error tree: where (`path`: the field names / list indexes from the root) and what. */
export interface SchemaError {
  path: string[];
  kind: SchemaErrorKind;
  causes?: SchemaError[];
}

/** Options of {@link validateAgainstSchema}. */
export interface SchemaValidationOptions {
  /** Kubernetes version whose definitions `$ref`s resolve in (default: the newest shipped). */
  version?: string;
  /** Disallow properties the schema does not list (`-strict`). */
  strict?: boolean;
}

/** The order in which jsonschema lists a type error's wanted types. */
export const TYPE_ORDER: readonly JsonType[] = [
  "null",
  "boolean",
  "number",
  "integer",
  "string",
  "array",
  "object",
];

/** The JSON type of a plain JS value (numbers are `number`, as jsonschema reports them). */
export function jsonTypeOf(value: unknown): JsonType {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "boolean":
      return "boolean";
    case "number":
    case "bigint":
      return "number";
    case "string":
      return "string";
    default:
      return "object";
  }
}

function schemaTypes(schema: OpenApiSchema): JsonType[] {
  const t = schema.type;
  if (typeof t === "string") return [t as JsonType];
  if (Array.isArray(t)) return t.map((x) => String(x) as JsonType);
  return [];
}

function typeMatches(types: readonly JsonType[], value: unknown): boolean {
  const t = jsonTypeOf(value);
  if (types.includes(t)) return true;
  return t === "number" && types.includes("integer") && Number.isInteger(value);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

class Validator {
  constructor(private readonly options: SchemaValidationOptions) {}

  /**
   * Validates `value` at `path`: undefined when valid, the single error, or a `group` of the node's
   * errors. `nullable` marks an optional field (openapi2jsonschema adds `null` to its type).
   */
  validate(
    raw: OpenApiSchema | undefined,
    value: unknown,
    path: string[],
    nullable: boolean,
  ): SchemaError | undefined {
    const schema = dereference(raw, this.options.version);
    if (!schema) return undefined;
    // kubernetes-models marks optional references `nullable` (OpenAPI v3's spelling of `null` allowed).
    if (raw?.nullable === true || schema.nullable === true) nullable = true;
    const types = schemaTypes(schema);
    if (types.length > 0) {
      const want = nullable && !types.includes("null") ? [...types, "null" as JsonType] : types;
      if (!typeMatches(want, value)) {
        return { path, kind: { keyword: "type", got: jsonTypeOf(value), want } };
      }
    } else if (nullable && value === null) {
      return undefined;
    }
    if (value === null && nullable) return undefined;
    if (Array.isArray(schema.enum) && !schema.enum.some((e) => deepEqual(e, value))) {
      return { path, kind: { keyword: "enum", got: value, want: schema.enum } };
    }
    const errors: SchemaError[] = [];
    if (Array.isArray(schema.oneOf)) {
      const oneOf = this.oneOf(schema.oneOf as OpenApiSchema[], value, path);
      if (oneOf) errors.push(oneOf);
    }
    if (jsonTypeOf(value) === "object") this.object(schema, value as Record<string, unknown>, path, errors);
    else if (Array.isArray(value)) this.array(schema, value, path, errors);
    if (errors.length === 0) return undefined;
    if (errors.length === 1) return errors[0];
    return { path, kind: { keyword: "group" }, causes: errors };
  }

  private oneOf(subschemas: OpenApiSchema[], value: unknown, path: string[]): SchemaError | undefined {
    const matched: number[] = [];
    const causes: SchemaError[] = [];
    subschemas.forEach((sub, i) => {
      const err = this.validate(sub, value, path, false);
      if (err) causes.push(err);
      else matched.push(i);
    });
    if (matched.length === 1) return undefined;
    return {
      path,
      kind: { keyword: "oneOf", matched: matched.length === 0 ? [] : matched.slice(0, 2) },
      causes,
    };
  }

  private object(
    schema: OpenApiSchema,
    obj: Record<string, unknown>,
    path: string[],
    errors: SchemaError[],
  ): void {
    const properties = (schema.properties ?? {}) as Record<string, OpenApiSchema>;
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    const missing = required.filter((name) => !Object.hasOwn(obj, name));
    if (missing.length > 0) errors.push({ path, kind: { keyword: "required", missing } });
    let additional = schema.additionalProperties as boolean | OpenApiSchema | undefined;
    if (additional === undefined && this.options.strict && schema.properties) additional = false;
    const notAllowed: string[] = [];
    for (const [name, child] of Object.entries(obj)) {
      const propSchema = properties[name];
      if (propSchema) {
        const err = this.validate(propSchema, child, [...path, name], !required.includes(name));
        if (err) errors.push(err);
      } else if (additional === false) {
        notAllowed.push(name);
      } else if (additional && typeof additional === "object") {
        const err = this.validate(additional, child, [...path, name], false);
        if (err) errors.push(err);
      }
    }
    if (notAllowed.length > 0)
      errors.push({ path, kind: { keyword: "additionalProperties", properties: notAllowed } });
  }

  private array(schema: OpenApiSchema, arr: unknown[], path: string[], errors: SchemaError[]): void {
    const items = schema.items as OpenApiSchema | undefined;
    if (!items || typeof items !== "object" || Array.isArray(items)) return;
    arr.forEach((item, i) => {
      const err = this.validate(items, item, [...path, String(i)], false);
      if (err) errors.push(err);
    });
  }
}

/**
 * Validates a plain JS value (a resource as JSON) against a schema. Returns undefined when it is valid,
 * else the error tree: the single error, or a `group` whose causes are the root's errors. Never throws
 * for bad input; a `$ref` to a missing definition accepts anything.
 */
export function validateAgainstSchema(
  schema: OpenApiSchema,
  value: unknown,
  options: SchemaValidationOptions = {},
): SchemaError | undefined {
  return new Validator(options).validate(schema, value, [], false);
}

/** jsonschema's `quote`: Go's `%q` with single quotes outside. */
export function quoteSingle(text: string): string {
  const inner = JSON.stringify(text).slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'");
  return `'${inner}'`;
}
