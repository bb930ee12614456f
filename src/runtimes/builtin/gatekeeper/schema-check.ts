/**
 * The part of Kubernetes' structural-schema validation (apiextensions `ValidateCustomResource`) that
 * Gatekeeper applies to a constraint through the CRD it generates from the template: types (with
 * `nullable`), `enum`, `pattern` (RE2), `required`, `maxLength`, `items`, `properties` and
 * `additionalProperties` schemas. Unknown fields are pruned by Kubernetes, never rejected, so they
 * are not errors here either. Messages are worded as the API server's field errors.
 */
import { compileRe2 } from "../../../krm/re2.js";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case "object":
      return isObject(value);
    case "array":
      return Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number";
    default:
      return true;
  }
}

/** Go's `%q`-like quoting of a field value in an error. */
function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : JSON.stringify(JSON.stringify(value) ?? "null");
}

function checkScalar(schema: Json, value: unknown, path: string, errors: string[]): void {
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    const allowed = schema.enum.map((e) => JSON.stringify(e)).join(", ");
    errors.push(`${path}: Unsupported value: ${shown(value)}: supported values: ${allowed}`);
  }
  if (typeof value !== "string") return;
  if (typeof schema.maxLength === "number" && [...value].length > schema.maxLength) {
    errors.push(`${path}: Too long: may not be longer than ${schema.maxLength}`);
  }
  if (typeof schema.pattern === "string") {
    let matches = true;
    try {
      matches = compileRe2(schema.pattern).test(value);
    } catch {
      return;
    }
    if (!matches) {
      errors.push(
        `${path}: Invalid value: ${shown(value)}: ${path} in body should match '${schema.pattern}'`,
      );
    }
  }
}

/** Validates `value` at `path` (`spec.parameters`) against `schema`, appending one message per error. */
export function checkSchema(schema: unknown, value: unknown, path: string, errors: string[]): void {
  if (!isObject(schema) || value === undefined) return;
  if (value === null) {
    if (schema.nullable !== true && typeof schema.type === "string") {
      errors.push(`${path}: Invalid value: "null": ${path} in body must be of type ${schema.type}: "null"`);
    }
    return;
  }
  if (typeof schema.type === "string" && !typeMatches(schema.type, value)) {
    const got = typeName(value);
    errors.push(`${path}: Invalid value: "${got}": ${path} in body must be of type ${schema.type}: "${got}"`);
    return;
  }
  checkScalar(schema, value, path, errors);
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      checkSchema(schema.items, item, `${path}[${i}]`, errors);
    });
    return;
  }
  if (!isObject(value)) return;
  if (Array.isArray(schema.required)) {
    for (const key of schema.required) {
      if (typeof key === "string" && !Object.hasOwn(value, key))
        errors.push(`${path}.${key}: Required value`);
    }
  }
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [key, item] of Object.entries(value)) {
    const sub = Object.hasOwn(properties, key) ? properties[key] : schema.additionalProperties;
    checkSchema(sub, item, `${path}.${key}`, errors);
  }
}

/** An error list as Kubernetes' `ToAggregate` prints it: one error alone, several in brackets. */
export function aggregate(errors: readonly string[]): string {
  return errors.length === 1 ? errors[0] : `[${errors.join(", ")}]`;
}
