/**
 * Validates request bodies our code sends against GitHub's REST description in
 * `../shared/github-api/rest-operations.json` (operations keyed `METHOD /path`, `requestBody` = the
 * dereferenced JSON schema). When the file is absent the check is skipped with a visible warning.
 * Supports the keywords GitHub's request bodies use: type, nullable, enum, required, properties,
 * additionalProperties, items, min/maxItems, maxLength, minimum/maximum, anyOf, oneOf.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const file = path.resolve(repoRoot, "../shared/github-api/rest-operations.json");

type Schema = {
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
};

/** True when the REST description is present. */
export const restSchemaAvailable = existsSync(file);
let operations: Record<string, { requestBody?: Schema }> | undefined;
let warned = false;

function typeOk(type: string, value: unknown): boolean {
  switch (type) {
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "null":
      return value === null;
    default:
      return typeof value === type;
  }
}

/** Errors of `value` against `schema`, each prefixed with its JSON path. */
export function validate(schema: Schema, value: unknown, at = "$"): string[] {
  if (value === null && schema.nullable) return [];
  const errors: string[] = [];
  if (schema.anyOf && !schema.anyOf.some((s) => validate(s, value, at).length === 0)) {
    errors.push(`${at}: matches none of anyOf`);
  }
  if (schema.oneOf) {
    const matches = schema.oneOf.filter((s) => validate(s, value, at).length === 0).length;
    if (matches !== 1) errors.push(`${at}: matches ${matches} of oneOf (expected exactly 1)`);
  }
  if (schema.type && !typeOk(schema.type, value)) return [...errors, `${at}: expected ${schema.type}`];
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${at}: ${JSON.stringify(value)} not in enum`);
  if (typeof value === "string" && schema.maxLength !== undefined && value.length > schema.maxLength) {
    errors.push(`${at}: longer than ${schema.maxLength}`);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${at}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${at}: above ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(`${at}: too few items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(`${at}: too many items`);
    const items = schema.items;
    if (items) {
      for (const [i, v] of value.entries()) errors.push(...validate(items, v, `${at}[${i}]`));
    }
  }
  if (
    typeOk("object", value) &&
    (schema.properties || schema.required || schema.additionalProperties !== undefined)
  ) {
    const obj = value as Record<string, unknown>;
    for (const key of schema.required ?? [])
      if (!(key in obj)) errors.push(`${at}: missing required "${key}"`);
    for (const [key, v] of Object.entries(obj)) {
      const prop = schema.properties?.[key];
      if (prop) errors.push(...validate(prop, v, `${at}.${key}`));
      else if (schema.additionalProperties === false) errors.push(`${at}: unknown property "${key}"`);
      else if (typeof schema.additionalProperties === "object") {
        errors.push(...validate(schema.additionalProperties, v, `${at}.${key}`));
      }
    }
  }
  return errors;
}

/**
 * Asserts that `body` is a valid request body of `operation` (e.g. `POST /repos/{owner}/{repo}/rulesets`).
 * Operations the description does not hold pass (there is nothing to check them against).
 */
export function expectValidRequestBody(operation: string, body: unknown): void {
  expect(requestBodyErrors(operation, body), `${operation} body ${JSON.stringify(body)}`).toEqual([]);
}

/** Problems of `body` as a request body of `operation`; `[]` when valid, undescribed, or the file is absent. */
export function requestBodyErrors(operation: string, body: unknown): string[] {
  if (!restSchemaAvailable) {
    if (!warned) console.warn(`skipping request-body validation: ${file} is absent`);
    warned = true;
    return [];
  }
  operations ??= (JSON.parse(readFileSync(file, "utf8")) as { operations: typeof operations }).operations;
  const schema = operations?.[operation]?.requestBody;
  return schema ? validate(schema, body) : [];
}

/** The schema-described operation key of a request: `PATCH /repos/o/r/check-runs/5` → template key. */
export function operationKey(method: string, pathname: string): string | undefined {
  operations ??= restSchemaAvailable
    ? (JSON.parse(readFileSync(file, "utf8")) as { operations: typeof operations }).operations
    : {};
  const clean = pathname.replace(/^\/api\/v3/, "").split("?")[0]!;
  for (const key of Object.keys(operations ?? {})) {
    const [m, template] = key.split(" ");
    if (m !== method.toUpperCase() || !template) continue;
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+").replace(/\[\^\/\]\+$/, ".+")}$`);
    if (pattern.test(clean)) return key;
  }
  return undefined;
}
