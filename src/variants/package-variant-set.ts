/**
 * Porch's `config.porch.kpt.dev/v1alpha2` PackageVariantSet: one upstream fanned out over a list of
 * targets (repositories and package names), each target's PackageVariant built from a template —
 * Porch's `renderPackageVariantSpec`. On GitHub a set lives in a repository and only its targets in
 * that repository are generated (a variant never writes to another repository). Targets selected by
 * labels (`repositorySelector`, `objectSelector`) and template expressions (`*Expr`, CEL) are
 * reported as unsupported.
 */
import { z } from "zod";
import {
  injectorSchema,
  type PackageVariant,
  type PackageVariantSpec,
  packageVariantSpecSchema,
  qualifyRepo,
} from "./package-variant.js";

const stringMap = z.record(z.string(), z.string());
const mapExpr = z.strictObject({
  key: z.string().optional(),
  value: z.string().optional(),
  keyExpr: z.string().optional(),
  valueExpr: z.string().optional(),
});
const functionTemplate = z.looseObject({ configMapExprs: z.array(mapExpr).optional() });

const templateSchema = z.strictObject({
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

function hasExpressions(template: z.infer<typeof templateSchema> | undefined): string | undefined {
  if (!template) return undefined;
  if (template.downstream?.repoExpr || template.downstream?.packageExpr) return "template.downstream.*Expr";
  if (template.labelExprs?.length) return "template.labelExprs";
  if (template.annotationExprs?.length) return "template.annotationExprs";
  if (template.packageContext?.dataExprs?.length || template.packageContext?.removeKeyExprs?.length)
    return "template.packageContext.*Exprs";
  if (template.injectors?.some((i) => i.nameExpr)) return "template.injectors[].nameExpr";
  const fns = [...(template.pipeline?.mutators ?? []), ...(template.pipeline?.validators ?? [])];
  if (fns.some((f) => (f.configMapExprs as unknown[] | undefined)?.length))
    return "template.pipeline[].configMapExprs";
  return undefined;
}

/** The name of the PackageVariant generated for one target (`<set>-<package>`, DNS-safe). */
export function generatedVariantName(set: string, pkg: string): string {
  return `${set}-${pkg}`
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * The PackageVariants a set generates for `ownRepo` (`owner/name`), and the problems of targets it
 * cannot generate (another repository, selectors, expressions).
 */
export function expandVariantSet(
  set: PackageVariantSet,
  ownRepo: string,
): { variants: PackageVariant[]; errors: string[] } {
  const variants: PackageVariant[] = [];
  const errors: string[] = [];
  const upstreamPackage = set.spec.upstream?.package ?? "";
  (set.spec.targets ?? []).forEach((target, i) => {
    const where = `PackageVariantSet ${set.name}: spec.targets[${i}]`;
    if (target.repositorySelector || target.objectSelector) {
      errors.push(`${where}: repositorySelector and objectSelector are not supported; list repositories`);
      return;
    }
    const expr = hasExpressions(target.template);
    if (expr) {
      errors.push(`${where}: ${expr} (CEL expressions) are not supported yet`);
      return;
    }
    for (const r of target.repositories ?? []) {
      if (qualifyRepo(r.name, ownRepo) !== ownRepo.toLowerCase()) continue;
      const t = target.template;
      for (const pkg of r.packageNames?.length
        ? r.packageNames
        : [upstreamPackage.split("/").pop() ?? upstreamPackage]) {
        const spec: PackageVariantSpec = {
          upstream: set.spec.upstream,
          downstream: { repo: t?.downstream?.repo ?? r.name, package: t?.downstream?.package ?? pkg },
          ...(t?.adoptionPolicy ? { adoptionPolicy: t.adoptionPolicy } : {}),
          ...(t?.deletionPolicy ? { deletionPolicy: t.deletionPolicy } : {}),
          ...(t?.labels ? { labels: t.labels } : {}),
          ...(t?.annotations ? { annotations: t.annotations } : {}),
          ...(t?.packageContext
            ? { packageContext: { data: t.packageContext.data, removeKeys: t.packageContext.removeKeys } }
            : {}),
          ...(t?.pipeline
            ? {
                pipeline: {
                  mutators: t.pipeline.mutators?.map(({ configMapExprs: _c, ...fn }) => fn),
                  validators: t.pipeline.validators?.map(({ configMapExprs: _c, ...fn }) => fn),
                },
              }
            : {}),
          ...(t?.injectors
            ? { injectors: t.injectors.map((x) => injectorSchema.parse({ ...x, name: x.name ?? "" })) }
            : {}),
        };
        const parsed = packageVariantSpecSchema.safeParse(spec);
        if (!parsed.success) {
          errors.push(
            `${where}: ${parsed.error.issues[0].path.join(".")}: ${parsed.error.issues[0].message}`,
          );
          continue;
        }
        variants.push({ name: generatedVariantName(set.name, pkg), file: set.file, spec: parsed.data });
      }
    }
  });
  return { variants, errors };
}
