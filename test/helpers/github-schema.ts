/**
 * Validates request bodies against GitHub's REST description (`../shared/github-api/rest-operations.json`,
 * the dereferenced OpenAPI of api.github.com). A deliberately small JSON-schema subset: the keywords
 * GitHub's request bodies use (type, properties, required, enum, items, additionalProperties,
 * oneOf/anyOf, nullable, maxItems/minItems, maxLength/minLength, minimum/maximum).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { providedByCi } from "./ci-provides.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const REST_OPERATIONS_PATH = path.resolve(repoRoot, "../shared/github-api/rest-operations.json");

/** The part of JSON Schema we read. */
export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  nullable?: boolean;
  maxItems?: number;
  minItems?: number;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
}

interface Operation {
  operationId: string;
  requestBody?: Schema;
}

let cache: Map<string, Operation> | null | undefined;

/** The operations keyed `METHOD /path/{template}`, or `null` (with a visible warning) when the file is absent. */
export function loadOperations(): Map<string, Operation> | null {
  if (cache !== undefined) return cache;
  const present = existsSync(REST_OPERATIONS_PATH);
  if (
    !providedByCi(
      "github-schema",
      present,
      `${REST_OPERATIONS_PATH} is absent: request bodies are NOT validated`,
    )
  ) {
    cache = null;
    return cache;
  }
  const doc = JSON.parse(readFileSync(REST_OPERATIONS_PATH, "utf8")) as {
    operations: Record<string, Operation>;
  };
  cache = new Map(Object.entries(doc.operations));
  return cache;
}

function templateRegex(template: string): RegExp {
  const parts = template.split(/(\{[^}]+\})/).map((part) => {
    if (!part.startsWith("{")) return part.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
    // `ref`, `path` and `basehead` may hold slashes (raw or %2F-encoded); other parameters do not.
    return /^\{(ref|path|basehead)\}$/.test(part) ? "(.+)" : "([^/]+)";
  });
  return new RegExp(`^${parts.join("")}$`);
}

/** Finds the operation for a request (`/api/v3` prefix and query string ignored). */
export function findOperation(
  method: string,
  urlPath: string,
): { key: string; operation: Operation } | undefined {
  const ops = loadOperations();
  if (!ops) return undefined;
  const clean = urlPath.replace(/\?.*$/, "").replace(/^\/api\/v3(?=\/)/, "");
  const matches = [...ops].filter(([key]) => {
    const [m, template] = key.split(" ");
    return m === method.toUpperCase() && template !== undefined && templateRegex(template).test(clean);
  });
  // The most literal template wins (`/git/ref/{ref}` over `/{owner}/{repo}/...` style overlaps).
  matches.sort(([a], [b]) => b.replace(/\{[^}]+\}/g, "").length - a.replace(/\{[^}]+\}/g, "").length);
  const best = matches[0];
  return best ? { key: best[0], operation: best[1] } : undefined;
}

const typeOf = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** Errors of `value` against `schema` (empty = valid), each prefixed with the JSON path. */
export function validateSchema(schema: Schema, value: unknown, at = "body"): string[] {
  if (value === null) return schema.nullable || schema.type === undefined ? [] : [`${at}: null not allowed`];
  const errors: string[] = [];
  if (schema.type) {
    const t = typeOf(value);
    const ok =
      schema.type === "integer"
        ? Number.isInteger(value)
        : schema.type === "number"
          ? t === "number"
          : t === schema.type;
    if (!ok) return [`${at}: expected ${schema.type}, got ${t}`];
  }
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${at}: ${JSON.stringify(value)} not in enum`);
  if (typeof value === "string") {
    const n = [...value].length;
    if (schema.maxLength !== undefined && n > schema.maxLength)
      errors.push(`${at}: longer than ${schema.maxLength}`);
    if (schema.minLength !== undefined && n < schema.minLength)
      errors.push(`${at}: shorter than ${schema.minLength}`);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${at}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${at}: above ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      errors.push(`${at}: ${value.length} items, maximum ${schema.maxItems}`);
    if (schema.minItems !== undefined && value.length < schema.minItems)
      errors.push(`${at}: ${value.length} items, minimum ${schema.minItems}`);
    const items = schema.items;
    if (items) value.forEach((v, i) => void errors.push(...validateSchema(items, v, `${at}[${i}]`)));
  }
  if (typeOf(value) === "object") {
    const obj = value as Record<string, unknown>;
    for (const r of schema.required ?? []) if (obj[r] === undefined) errors.push(`${at}: missing "${r}"`);
    for (const [k, v] of Object.entries(obj)) {
      const prop = schema.properties?.[k];
      if (prop) errors.push(...validateSchema(prop, v, `${at}.${k}`));
      else if (schema.additionalProperties === false) errors.push(`${at}: unexpected "${k}"`);
      else if (typeof schema.additionalProperties === "object")
        errors.push(...validateSchema(schema.additionalProperties, v, `${at}.${k}`));
    }
  }
  if (schema.anyOf && !schema.anyOf.some((s) => validateSchema(s, value, at).length === 0))
    errors.push(`${at}: matches none of anyOf`);
  if (schema.oneOf) {
    const n = schema.oneOf.filter((s) => validateSchema(s, value, at).length === 0).length;
    if (n !== 1) errors.push(`${at}: matches ${n} of oneOf (exactly 1 required)`);
  }
  return errors;
}

/**
 * Validates one intercepted request body. Returns errors; an operation that is not in the file or has no
 * request body yields none, and so does an absent file (warned once).
 */
export function validateRequestBody(method: string, urlPath: string, body: unknown): string[] {
  const found = findOperation(method, urlPath);
  if (!found?.operation.requestBody || body === undefined || body === "") return [];
  return validateSchema(found.operation.requestBody, body).map((e) => `${found.key}: ${e}`);
}
