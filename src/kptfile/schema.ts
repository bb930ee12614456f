/**
 * The `kpt.dev/v1` Kptfile schema (kpt's `pkg/api/kptfile/v1` types), decoded strictly like kpt's
 * yaml.v3 `KnownFields` decoding: unknown fields are errors. Field order here is kpt's struct order,
 * which is also the order in which the root Kptfile is written back when the status is written.
 *
 * The schemas are built on demand from the `zod` module the caller passes (`defineKptfileSchemas`):
 * reading a valid Kptfile needs only the hand check in `./check.ts`, so zod is not loaded on the
 * render path; it words the errors of an invalid Kptfile.
 */
import type { z as Zod } from "zod";

/** kpt's `Selector` and `Function` (one pipeline step), built with `z`. */
function functionSchemas(z: typeof Zod) {
  const stringMap = z.record(z.string(), z.string());

  /** kpt's `Selector`: every set field must match (labels/annotations: all given pairs). */
  const selectorSchema = z.strictObject({
    apiVersion: z.string().optional(),
    kind: z.string().optional(),
    name: z.string().optional(),
    namespace: z.string().optional(),
    labels: stringMap.optional(),
    annotations: stringMap.optional(),
    /** Newer kpt: a Go regexp the resource's `config.kubernetes.io/path` must match (unanchored). */
    resourceFileRegexp: z.string().optional(),
  });

  /** kpt's `Function`: one pipeline step. */
  const functionSchema = z.strictObject({
    image: z.string().optional(),
    exec: z.string().optional(),
    configPath: z.string().optional(),
    configMap: stringMap.optional(),
    /** Inline functionConfig (a whole KRM resource), newer kpt. */
    config: z.record(z.string(), z.unknown()).optional(),
    name: z.string().optional(),
    tag: z.string().optional(),
    selectors: z.array(selectorSchema).optional(),
    exclude: z.array(selectorSchema).optional(),
    /** Newer kpt: a CEL expression over `resources`; the step is skipped when it is false. */
    when: z.string().optional(),
    /** Earlier spelling of `when` in kpt's development history (accepted, written back as given). */
    condition: z.string().optional(),
  });
  return { selectorSchema, functionSchema };
}

/** kpt's `Upstream` and `Locator` (`upstream`, `upstreamLock`), built with `z`. */
function upstreamSchemas(z: typeof Zod) {
  const gitSchema = z.strictObject({
    repo: z.string().optional(),
    directory: z.string().optional(),
    ref: z.string().optional(),
  });
  const gitLockSchema = gitSchema.extend({ commit: z.string().optional() });
  const upstreamSchema = z.strictObject({
    type: z.string().optional(),
    git: gitSchema.optional(),
    updateStrategy: z.string().optional(),
  });
  const upstreamLockSchema = z.strictObject({
    type: z.string().optional(),
    git: gitLockSchema.optional(),
    generic: z
      .strictObject({
        storeID: z.string().optional(),
        resourceID: z.string().optional(),
        resourceVersion: z.string().optional(),
      })
      .optional(),
  });
  return { upstreamSchema, upstreamLockSchema };
}

/** kpt's `PackageInfo` (`info`), built with `z`. */
function packageInfoSchema(z: typeof Zod) {
  return z.strictObject({
    site: z.string().optional(),
    emails: z.array(z.string()).optional(),
    license: z.string().optional(),
    licenseFile: z.string().optional(),
    description: z.string().optional(),
    keywords: z.array(z.string()).optional(),
    man: z.string().optional(),
    readinessGates: z.array(z.strictObject({ conditionType: z.string() })).optional(),
  });
}

/** The Kptfile schemas, built with `z` (the zod module's `z`). */
export function defineKptfileSchemas(z: typeof Zod) {
  const stringMap = z.record(z.string(), z.string());
  const { selectorSchema, functionSchema } = functionSchemas(z);
  const { upstreamSchema, upstreamLockSchema } = upstreamSchemas(z);

  /** The whole Kptfile (status is kept as read; the engine replaces it). */
  const kptfileSchema = z.strictObject({
    apiVersion: z.string(),
    kind: z.string(),
    metadata: z
      .strictObject({
        name: z.string().optional(),
        namespace: z.string().optional(),
        labels: stringMap.optional(),
        annotations: stringMap.optional(),
      })
      .optional(),
    upstream: upstreamSchema.optional(),
    upstreamLock: upstreamLockSchema.optional(),
    info: packageInfoSchema(z).optional(),
    pipeline: z
      .strictObject({
        mutators: z.array(functionSchema).optional(),
        validators: z.array(functionSchema).optional(),
      })
      .optional(),
    inventory: z
      .strictObject({
        namespace: z.string().optional(),
        name: z.string().optional(),
        inventoryID: z.string().optional(),
        labels: stringMap.optional(),
        annotations: stringMap.optional(),
      })
      .optional(),
    status: z.unknown().optional(),
  });
  return { selectorSchema, functionSchema, kptfileSchema };
}

type Schemas = ReturnType<typeof defineKptfileSchemas>;
/** A decoded selector. */
export type Selector = Zod.infer<Schemas["selectorSchema"]>;
/** A decoded pipeline function (step). */
export type KptFunction = Zod.infer<Schemas["functionSchema"]>;
/** A decoded Kptfile; scalars are strings, as yaml.v3 decodes them into kpt's string fields. */
export type Kptfile = Zod.infer<Schemas["kptfileSchema"]>;

/** Go struct type names kpt's decoder prints for unknown fields, by parent path. */
export function goTypeName(path: readonly (string | number)[]): string {
  const keys = path.filter((p): p is string => typeof p === "string");
  const last = keys[keys.length - 1];
  switch (last) {
    case undefined:
      return "v1.KptFile";
    case "metadata":
      return "yaml.ObjectMeta";
    case "pipeline":
      return "v1.Pipeline";
    case "mutators":
    case "validators":
      return "v1.Function";
    case "selectors":
    case "exclude":
      return "v1.Selector";
    case "info":
      return "v1.PackageInfo";
    case "upstream":
      return "v1.Upstream";
    case "upstreamLock":
      return "v1.Locator";
    case "git":
      return "v1.Git";
    case "inventory":
      return "v1.Inventory";
    default:
      return `v1.${last}`;
  }
}
