/**
 * Strict decoding of a Kptfile's plain data (`toPlain` output) against the `kpt.dev/v1` schema, cheap
 * on the common path: a hand check (`KPTFILE_SHAPE`, mirroring `defineKptfileSchemas`) accepts a valid
 * Kptfile without loading zod; anything it does not accept goes to the zod schema, which decides and
 * words the errors (kpt's messages come from its issues). The hand check only ever accepts what zod
 * accepts, and returns the same data as zod: the same values, the schema's fields in the schema's order
 * (zod's output lists an object's known fields in its shape's order, whatever the input's order; maps
 * such as `labels` and free objects such as `config` keep the input's order).
 */
import { createRequire } from "node:module";
import type { z as Zod } from "zod";
import { defineKptfileSchemas, type Kptfile } from "./schema.js";

/** A field's type in the hand check's shape. */
export type FieldShape =
  | "string"
  | "stringMap"
  | "object"
  | "unknown"
  | { fields: Record<string, FieldShape>; required?: readonly string[] }
  | { items: FieldShape };

const selector: FieldShape = {
  fields: {
    apiVersion: "string",
    kind: "string",
    name: "string",
    namespace: "string",
    labels: "stringMap",
    annotations: "stringMap",
    resourceFileRegexp: "string",
  },
};

const fn: FieldShape = {
  fields: {
    image: "string",
    exec: "string",
    configPath: "string",
    configMap: "stringMap",
    config: "object",
    name: "string",
    tag: "string",
    selectors: { items: selector },
    exclude: { items: selector },
    when: "string",
    condition: "string",
  },
};

const git = { repo: "string", directory: "string", ref: "string" } as const;

/** The Kptfile schema as the hand check reads it (every field optional unless `required`). */
export const KPTFILE_SHAPE: FieldShape = {
  required: ["apiVersion", "kind"],
  fields: {
    apiVersion: "string",
    kind: "string",
    metadata: {
      fields: { name: "string", namespace: "string", labels: "stringMap", annotations: "stringMap" },
    },
    upstream: { fields: { type: "string", git: { fields: git }, updateStrategy: "string" } },
    upstreamLock: {
      fields: {
        type: "string",
        git: { fields: { ...git, commit: "string" } },
        generic: { fields: { storeID: "string", resourceID: "string", resourceVersion: "string" } },
      },
    },
    info: {
      fields: {
        site: "string",
        emails: { items: "string" },
        license: "string",
        licenseFile: "string",
        description: "string",
        keywords: { items: "string" },
        man: "string",
        readinessGates: { items: { required: ["conditionType"], fields: { conditionType: "string" } } },
      },
    },
    pipeline: { fields: { mutators: { items: fn }, validators: { items: fn } } },
    inventory: {
      fields: {
        namespace: "string",
        name: "string",
        inventoryID: "string",
        labels: "stringMap",
        annotations: "stringMap",
      },
    },
    status: "unknown",
  },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Whether `value` certainly satisfies `shape` (false: let zod decide). */
export function fitsShape(value: unknown, shape: FieldShape): boolean {
  if (shape === "unknown") return true;
  if (shape === "string") return typeof value === "string";
  if (shape === "object") return isPlainObject(value);
  if (shape === "stringMap") {
    if (!isPlainObject(value)) return false;
    for (const key in value) if (typeof value[key] !== "string") return false;
    return true;
  }
  if ("items" in shape) return Array.isArray(value) && value.every((item) => fitsShape(item, shape.items));
  if (!isPlainObject(value)) return false;
  for (const key of shape.required ?? []) if (!Object.hasOwn(value, key)) return false;
  for (const key of Object.keys(value)) {
    const field = shape.fields[key];
    if (field === undefined || !Object.hasOwn(shape.fields, key) || !fitsShape(value[key], field))
      return false;
  }
  return true;
}

/**
 * `value` (which {@link fitsShape} accepted) with each object's fields in `shape`'s order, as zod
 * outputs them; maps, free objects and unknown values are returned as they are.
 */
export function inShapeOrder(value: unknown, shape: FieldShape): unknown {
  if (typeof shape === "string") return value;
  if ("items" in shape) return (value as unknown[]).map((item) => inShapeOrder(item, shape.items));
  const input = value as Record<string, unknown>;
  const output: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape.fields)) {
    if (Object.hasOwn(input, key)) output[key] = inShapeOrder(input[key], field);
  }
  return output;
}

type Schemas = ReturnType<typeof defineKptfileSchemas>;
let schemas: Schemas | undefined;

/**
 * The zod schemas, loaded on first use. Synchronously, with `require` (zod ships CommonJS): Kptfile
 * reading is synchronous, and the bundled CLI leaves this require to Node.
 */
export function kptfileSchemas(): Schemas {
  if (!schemas) {
    const { z } = createRequire(import.meta.url)("zod") as { z: typeof Zod };
    schemas = defineKptfileSchemas(z);
  }
  return schemas;
}

/** zod's `safeParse` result for a Kptfile. */
export type KptfileDecoding = ReturnType<Schemas["kptfileSchema"]["safeParse"]>;

/** Decodes a Kptfile's plain data strictly: the hand check, else zod (whose result is returned). */
export function decodeKptfileData(data: unknown): KptfileDecoding {
  if (fitsShape(data, KPTFILE_SHAPE)) {
    return { success: true, data: inShapeOrder(data, KPTFILE_SHAPE) as Kptfile } as KptfileDecoding;
  }
  return kptfileSchemas().kptfileSchema.safeParse(data);
}
