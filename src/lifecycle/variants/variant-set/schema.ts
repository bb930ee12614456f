/** PackageVariantSet's schema (`config.porch.kpt.dev/v1alpha2`) and reading one. */
import { z } from "zod";
import { packageVariantSpecSchema } from "../package-variant.js";

const stringMap = z.record(z.string(), z.string());
export const mapExpr = z.strictObject({
  key: z.string().optional(),
  value: z.string().optional(),
  keyExpr: z.string().optional(),
  valueExpr: z.string().optional(),
});
export const functionTemplate = z.looseObject({ configMapExprs: z.array(mapExpr).optional() });

export const templateSchema = z.strictObject({
  downstream: z
    .strictObject({
      repo: z.string().optional(),
      package: z.string().optional(),
      repoExpr: z.string().optional(),
      packageExpr: z.string().optional(),
    })
    .optional(),
  adoptionPolicy: z.string().optional(),
  deletionPolicy: z.string().optional(),
  labels: stringMap.optional(),
  labelExprs: z.array(mapExpr).optional(),
  annotations: stringMap.optional(),
  annotationExprs: z.array(mapExpr).optional(),
  packageContext: z
    .strictObject({
      data: stringMap.optional(),
      removeKeys: z.array(z.string()).optional(),
      dataExprs: z.array(mapExpr).optional(),
      removeKeyExprs: z.array(z.string()).optional(),
    })
    .optional(),
  pipeline: z
    .strictObject({
      mutators: z.array(functionTemplate).optional(),
      validators: z.array(functionTemplate).optional(),
    })
    .optional(),
  injectors: z
    .array(
      z.strictObject({
        group: z.string().optional(),
        version: z.string().optional(),
        kind: z.string().optional(),
        name: z.string().optional(),
        nameExpr: z.string().optional(),
      }),
    )
    .optional(),
});

/** `spec` of a PackageVariantSet (v1alpha2). */
export const packageVariantSetSpecSchema = z.strictObject({
  upstream: packageVariantSpecSchema.shape.upstream,
  targets: z
    .array(
      z.strictObject({
        repositories: z
          .array(z.strictObject({ name: z.string(), packageNames: z.array(z.string()).optional() }))
          .optional(),
        repositorySelector: z.unknown().optional(),
        objectSelector: z.unknown().optional(),
        template: templateSchema.optional(),
      }),
    )
    .optional(),
});

/** The API version of PackageVariantSet handled here. */
export const PACKAGE_VARIANT_SET_API_VERSION = "config.porch.kpt.dev/v1alpha2";

/** A PackageVariantSet as committed. */
export interface PackageVariantSet {
  name: string;
  file: string;
  spec: z.infer<typeof packageVariantSetSpecSchema>;
}

/** Reads a PackageVariantSet resource; undefined for other kinds. Throws naming the field on a wrong shape. */
export function parsePackageVariantSet(file: string, data: unknown): PackageVariantSet | undefined {
  if (!data || typeof data !== "object") return undefined;
  const obj = data as Record<string, unknown>;
  if (obj.kind !== "PackageVariantSet" || obj.apiVersion !== PACKAGE_VARIANT_SET_API_VERSION)
    return undefined;
  const name = String((obj.metadata as Record<string, unknown> | undefined)?.name ?? "");
  if (!name) throw new Error(`${file}: PackageVariantSet without metadata.name`);
  const parsed = packageVariantSetSpecSchema.safeParse(obj.spec ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: PackageVariantSet ${name}: spec.${issue.path.join(".")}: ${issue.message}`);
  }
  return { name, file, spec: parsed.data };
}
