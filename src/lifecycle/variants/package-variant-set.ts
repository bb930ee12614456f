/**
 * Porch's `config.porch.kpt.dev/v1alpha2` PackageVariantSet: one upstream fanned out over a list of
 * targets (repositories and package names), each target's PackageVariant built from a template —
 * Porch's `renderPackageVariantSpec`. On GitHub a set lives in a repository and only its targets in
 * that repository are generated (a variant never writes to another repository). Template
 * expressions (`*Expr`) are CEL, evaluated with Porch's inputs (`repoDefault`, `packageDefault`,
 * `upstream`, `target`, `repository`; GitHub objects have no labels or annotations). Targets selected
 * by labels (`repositorySelector`, `objectSelector`) are reported as unsupported.
 */
import {
  type PackageVariant,
  type PackageVariantSpec,
  packageVariantSpecSchema,
  qualifyRepo,
} from "./package-variant.js";
import { renderSpec } from "./variant-set/render-spec.js";
import type { PackageVariantSet } from "./variant-set/schema.js";

export {
  PACKAGE_VARIANT_SET_API_VERSION,
  type PackageVariantSet,
  parsePackageVariantSet,
} from "./variant-set/schema.js";

/** The name of the PackageVariant generated for one target (`<set>-<package>`, DNS-safe). */
export function generatedVariantName(set: string, pkg: string): string {
  return `${set}-${pkg}`
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * The PackageVariants a set generates for `ownRepo` (`owner/name`), the problems of targets it cannot
 * generate (selectors, expressions), and the other repositories it names (`elsewhere`, `owner/name`:
 * a copy of the set committed there serves them).
 */
export function expandVariantSet(
  set: PackageVariantSet,
  ownRepo: string,
): { variants: PackageVariant[]; errors: string[]; elsewhere: string[] } {
  const variants: PackageVariant[] = [];
  const errors: string[] = [];
  const elsewhere = new Set<string>();
  const upstreamPackage = set.spec.upstream?.package ?? "";
  (set.spec.targets ?? []).forEach((target, i) => {
    const where = `PackageVariantSet ${set.name}: spec.targets[${i}]`;
    if (target.repositorySelector || target.objectSelector) {
      errors.push(`${where}: repositorySelector and objectSelector are not supported; list repositories`);
      return;
    }
    for (const r of target.repositories ?? []) {
      if (qualifyRepo(r.name, ownRepo) !== ownRepo.toLowerCase()) {
        elsewhere.add(qualifyRepo(r.name, ownRepo));
        continue;
      }
      for (const pkg of r.packageNames?.length
        ? r.packageNames
        : [upstreamPackage.split("/").pop() ?? upstreamPackage]) {
        let spec: PackageVariantSpec;
        try {
          spec = renderSpec({ set, template: target.template, repoDefault: r.name, packageDefault: pkg });
        } catch (err) {
          errors.push(`${where}: ${err instanceof Error ? err.message : String(err)}`);
          continue;
        }
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
  return { variants, errors, elsewhere: [...elsewhere].sort() };
}
