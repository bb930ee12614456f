/**
 * Porch's `config.porch.kpt.dev/v1alpha1` PackageVariant, read from a file of a downstream
 * repository: which upstream package revision to clone, which downstream package to keep in sync,
 * and the mutations to apply on top (package context, pipeline functions, labels and annotations,
 * config injection). Decoded strictly; validation gives Porch's messages.
 *
 * GitHub mapping: `upstream.repo` and `downstream.repo` name repositories of the installation
 * (`owner/name`, or `name` within the variant's owner); `upstream.revision` names a published
 * revision (`2` as in Porch's API, or `v2`: both mean the tag `<package>/v2`), or, when absent, the
 * newest one (the variant follows its upstream, as Porch's controller does); a variant only writes
 * to the repository that holds it.
 */
import { z } from "zod";

const stringMap = z.record(z.string(), z.string());

const selector = z.strictObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  labels: stringMap.optional(),
  annotations: stringMap.optional(),
});

/** A kpt pipeline function as a PackageVariant lists it (kpt's `Function`). */
export const functionSchema = z.strictObject({
  image: z.string().optional(),
  exec: z.string().optional(),
  configPath: z.string().optional(),
  configMap: stringMap.optional(),
  name: z.string().optional(),
  selectors: z.array(selector).optional(),
  exclude: z.array(selector).optional(),
});
/** A pipeline function. */
export type VariantFunction = z.infer<typeof functionSchema>;

/** `spec.injectors[]`: a resource to inject, by group/version/kind and name. */
export const injectorSchema = z.strictObject({
  group: z.string().optional(),
  version: z.string().optional(),
  kind: z.string().optional(),
  name: z.string(),
});
/** An injection selector. */
export type InjectionSelector = z.infer<typeof injectorSchema>;

const revision = z.union([z.number().int(), z.string()]);

/** `spec` of a PackageVariant (Porch's `PackageVariantSpec`). */
export const packageVariantSpecSchema = z.strictObject({
  upstream: z
    .strictObject({
      repo: z.string().optional(),
      package: z.string().optional(),
      revision: revision.optional(),
      workspaceName: z.string().optional(),
    })
    .optional(),
  downstream: z.strictObject({ repo: z.string().optional(), package: z.string().optional() }).optional(),
  adoptionPolicy: z.string().optional(),
  deletionPolicy: z.string().optional(),
  labels: stringMap.optional(),
  annotations: stringMap.optional(),
  packageContext: z
    .strictObject({ data: stringMap.optional(), removeKeys: z.array(z.string()).optional() })
    .optional(),
  pipeline: z
    .strictObject({
      mutators: z.array(functionSchema).optional(),
      validators: z.array(functionSchema).optional(),
    })
    .optional(),
  injectors: z.array(injectorSchema).optional(),
});
/** A PackageVariant's spec. */
export type PackageVariantSpec = z.infer<typeof packageVariantSpecSchema>;

/** A PackageVariant as committed. */
export interface PackageVariant {
  name: string;
  /** The file it was read from (relative to the repository root). */
  file: string;
  spec: PackageVariantSpec;
}

/** A PackageVariant after validation and defaulting. */
export interface ValidVariant extends PackageVariant {
  /** `revision` undefined: the newest published revision. */
  upstream: { repo: string; package: string; revision: number | undefined };
  downstream: { repo: string; package: string };
  adoptionPolicy: "adoptNone" | "adoptExisting";
  deletionPolicy: "delete" | "orphan";
}

/** The API version and kind of PackageVariant. */
export const PACKAGE_VARIANT_API_VERSION = "config.porch.kpt.dev/v1alpha1";

/**
 * A revision as a number: `2`, `"2"` and `"v2"` are 2 (Porch's `Revision2Int`); anything else is
 * undefined.
 */
export function revisionNumber(value: number | string | undefined): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) && value > 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const m = /^v?(\d+)$/.exec(value.trim());
  return m ? Number(m[1]) : undefined;
}

const RESERVED_CONTEXT_KEYS = ["name", "package-path"];

/**
 * Porch's `validatePackageVariant` plus porchlight's rules (a published upstream revision, a
 * downstream in the variant's own repository): the list of problems, empty when valid.
 * `ownRepo` is `owner/name` of the repository holding the variant.
 */
export function validateVariant(pv: PackageVariant, ownRepo: string): string[] {
  const errs: string[] = [];
  const s = pv.spec;
  if (!s.upstream) errs.push("missing required field spec.upstream");
  else {
    if (!s.upstream.repo) errs.push("missing required field spec.upstream.repo");
    if (!s.upstream.package) errs.push("missing required field spec.upstream.package");
    if (s.upstream.revision !== undefined && revisionNumber(s.upstream.revision) === undefined) {
      errs.push("spec.upstream.revision must name a published revision (2 or v2)");
    }
    if (s.upstream.workspaceName) {
      errs.push(
        "spec.upstream.workspaceName is not supported: name a published revision (revision: 2), or none to follow the newest",
      );
    }
  }
  if (!s.downstream) errs.push("missing required field spec.downstream");
  else {
    if (!s.downstream.repo) errs.push("missing required field spec.downstream.repo");
    else if (qualifyRepo(s.downstream.repo, ownRepo) !== ownRepo.toLowerCase()) {
      errs.push(
        `spec.downstream.repo must be this repository (${ownRepo}): a variant only writes to its own repository`,
      );
    }
    if (!s.downstream.package) errs.push("missing required field spec.downstream.package");
  }
  if (s.adoptionPolicy && s.adoptionPolicy !== "adoptNone" && s.adoptionPolicy !== "adoptExisting") {
    errs.push('spec.adoptionPolicy field can only be "adoptNone" or "adoptExisting"');
  }
  if (s.deletionPolicy && s.deletionPolicy !== "orphan" && s.deletionPolicy !== "delete") {
    errs.push('spec.deletionPolicy can only be "orphan" or "delete"');
  }
  for (const key of RESERVED_CONTEXT_KEYS) {
    if (s.packageContext?.data && key in s.packageContext.data) {
      errs.push(`spec.packageContext.data: must not contain the key ${JSON.stringify(key)}`);
    }
    if (s.packageContext?.removeKeys?.includes(key)) {
      errs.push(`spec.packageContext.removeKeys: must not contain the key ${JSON.stringify(key)}`);
    }
  }
  s.injectors?.forEach((inj, i) => {
    if (!inj.name) errs.push(`spec.injectors[${i}].name must not be empty`);
  });
  return errs;
}

/** `owner/name` (lower case) for a repository given as `owner/name` or `name` (same owner as `ownRepo`). */
export function qualifyRepo(repo: string, ownRepo: string): string {
  const r = repo.trim();
  const full = r.includes("/") ? r : `${ownRepo.split("/")[0]}/${r}`;
  return full.toLowerCase();
}

/** Validates and fills Porch's defaults (`adoptNone`, `delete`). Throws with the problems joined by `; `. */
export function toValidVariant(pv: PackageVariant, ownRepo: string): ValidVariant {
  const errs = validateVariant(pv, ownRepo);
  if (errs.length > 0) throw new Error(errs.join("; "));
  const s = pv.spec;
  return {
    ...pv,
    upstream: {
      repo: qualifyRepo(s.upstream!.repo!, ownRepo),
      package: s.upstream!.package!.replace(/^\/+|\/+$/g, ""),
      revision: revisionNumber(s.upstream!.revision),
    },
    downstream: { repo: ownRepo, package: s.downstream!.package!.replace(/^\/+|\/+$/g, "") },
    adoptionPolicy: s.adoptionPolicy === "adoptExisting" ? "adoptExisting" : "adoptNone",
    deletionPolicy: s.deletionPolicy === "orphan" ? "orphan" : "delete",
  };
}

/**
 * Reads a PackageVariant resource (plain data from YAML). Throws an error naming the field on a
 * wrong shape; returns undefined for other kinds.
 */
export function parsePackageVariant(file: string, data: unknown): PackageVariant | undefined {
  if (!data || typeof data !== "object") return undefined;
  const obj = data as Record<string, unknown>;
  if (obj.kind !== "PackageVariant" || obj.apiVersion !== PACKAGE_VARIANT_API_VERSION) return undefined;
  const meta = (obj.metadata ?? {}) as Record<string, unknown>;
  const name = typeof meta.name === "string" ? meta.name : "";
  if (!name) throw new Error(`${file}: PackageVariant without metadata.name`);
  const parsed = packageVariantSpecSchema.safeParse(obj.spec ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: PackageVariant ${name}: spec.${issue.path.join(".")}: ${issue.message}`);
  }
  return { name, file, spec: parsed.data };
}
