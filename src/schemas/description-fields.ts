/**
 * Fields named `description` that `@kubernetes-models/gke`'s schemas lost. Its generator removes the
 * `description` keyword (the documentation text) from every schema node — and with it every property
 * that is *called* `description`, such as `ComputeInstance`'s and `OSConfigOSPolicyAssignment`'s
 * `spec.description`, which Config Connector's CRDs define (`type: string`). The package's type
 * declarations (`<Kind>.d.ts`, generated from the same CRD) still declare those fields, so they are
 * read from there and put back into the schema, as the CRD has them.
 */
import type { OpenApiSchema } from "./kubernetes.js";

/** Where a declared `description` field sits: property names, `[]` for array items, `{}` for map values. */
export interface DescriptionField {
  path: string[];
  /** Declared without `?` (the CRD lists it in `required`). */
  required: boolean;
}

const PROPERTY = /^\s*"([^"]+)"(\??):\s*(.*)$/;
const MAP_VALUE = /^\s*\[key: string\]:\s*(.*)$/;
const DESCRIPTION = /^\s*"description"(\??):\s*string;\s*$/;

/** The segment a line's first `{` opens: the property it declares, with `[]` for each `Array<` before it. */
function openedSegment(line: string): string[] | undefined {
  const property = PROPERTY.exec(line);
  const map = property ? undefined : MAP_VALUE.exec(line);
  const rest = property?.[3] ?? map?.[1];
  if (rest === undefined) return undefined;
  const beforeBrace = rest.slice(0, Math.max(rest.indexOf("{"), 0));
  const arrays = beforeBrace.match(/Array</g)?.length ?? 0;
  return [property ? property[1] : "{}", ...Array<string>(arrays).fill("[]")];
}

/**
 * The `description: string` fields the first interface of a generated `.d.ts` declares, by path from
 * the resource's root. The declarations are read line by line as kubernetes-models writes them (one
 * member per line, doc comments on their own lines); a union (`} & ({`, `}> | Exclude<{`) reopens the
 * object it closed, so both branches map to the same path.
 */
export function declaredDescriptionFields(dts: string): DescriptionField[] {
  const found: DescriptionField[] = [];
  const stack: string[][] = [];
  let started = false;
  for (const line of dts.split("\n")) {
    const trimmed = line.trim();
    if (!started) {
      if (/^export interface \w+ \{$/.test(trimmed)) {
        started = true;
        stack.push([]);
      }
      continue;
    }
    if (trimmed.startsWith("/**") || trimmed.startsWith("*")) continue;
    const described = DESCRIPTION.exec(line);
    if (described) found.push({ path: stack.flat(), required: described[1] !== "?" });
    let opened = openedSegment(line);
    let closed: string[] | undefined;
    for (const ch of line) {
      if (ch === "}") closed = stack.pop();
      else if (ch === "{") {
        stack.push(opened ?? closed ?? ["?"]);
        opened = undefined;
      }
    }
    if (stack.length === 0) break;
  }
  return found;
}

function child(node: OpenApiSchema | undefined, segment: string): OpenApiSchema | undefined {
  if (!node) return undefined;
  const next =
    segment === "[]"
      ? node.items
      : segment === "{}"
        ? node.additionalProperties
        : (node.properties as Record<string, unknown> | undefined)?.[segment];
  return next && typeof next === "object" && !Array.isArray(next) ? (next as OpenApiSchema) : undefined;
}

/**
 * Puts each declared `description` field back into `schema` (mutated): a string, `nullable` when
 * optional, as the package writes the other optional strings. Only into objects that list
 * `properties` and do not have it; a path the schema does not have is skipped.
 */
export function restoreDescriptionFields(schema: OpenApiSchema, fields: DescriptionField[]): void {
  for (const field of fields) {
    let node: OpenApiSchema | undefined = schema;
    for (const segment of field.path) node = child(node, segment);
    const properties = node?.properties as Record<string, unknown> | undefined;
    if (!properties || typeof properties !== "object" || Object.hasOwn(properties, "description")) continue;
    properties.description = field.required ? { type: "string" } : { type: "string", nullable: true };
  }
}
