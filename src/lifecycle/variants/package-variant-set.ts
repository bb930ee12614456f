/**
 * Porch's `config.porch.kpt.dev/v1alpha2` PackageVariantSet: one upstream fanned out over a list of
 * targets (repositories and package names), each target's PackageVariant built from a template —
 * Porch's `renderPackageVariantSpec`. On GitHub a set lives in a repository and only its targets in
 * that repository are generated (a variant never writes to another repository). Template
 * expressions (`*Expr`) are CEL, evaluated with Porch's inputs (`repoDefault`, `packageDefault`,
 * `upstream`, `target`, `repository`; GitHub objects have no labels or annotations). Targets selected
 * by labels (`repositorySelector`, `objectSelector`) are reported as unsupported.
 */
import { isCelError, run } from "@bufbuild/cel";
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

type MapExpr = z.infer<typeof mapExpr>;

/** An expression of a template that cannot be evaluated, naming the field. */
class ExpressionError extends Error {}

/** The values a template's CEL expressions see (Porch's `repoDefault`, `packageDefault`, `upstream`, `target`, `repository`). */
type Inputs = Record<string, unknown>;

/** Porch's `evalExpr`: a CEL expression that must give a string. */
function evalExpr(field: string, expr: string, inputs: Inputs): string {
  const value = run(expr, inputs as never);
  if (isCelError(value)) throw new ExpressionError(`${field}: ${value.message}`);
  if (typeof value !== "string")
    throw new ExpressionError(`${field}: expression returned non-string value: ${String(value)}`);
  return value;
}

/** Porch's `copyAndOverlayMapExpr`: the static map, then each `key`/`keyExpr` → `value`/`valueExpr`. */
function overlayMap(
  field: string,
  base: Record<string, string> | undefined,
  exprs: readonly MapExpr[] | undefined,
  inputs: Inputs,
): Record<string, string> | undefined {
  const out: Record<string, string> = { ...base };
  (exprs ?? []).forEach((me, i) => {
    const k =
      me.keyExpr !== undefined ? evalExpr(`${field}[${i}].keyExpr`, me.keyExpr, inputs) : (me.key ?? "");
    const v =
      me.valueExpr !== undefined
        ? evalExpr(`${field}[${i}].valueExpr`, me.valueExpr, inputs)
        : (me.value ?? "");
    out[k] = v;
  });
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Porch's `objectToInput` for an object without labels or annotations on GitHub. */
function objectInput(name: string): Record<string, unknown> {
  return { name, namespace: "", labels: {}, annotations: {} };
}

/** Porch's `renderPackageVariantSpec` for one repository target. */
function renderSpec(options: {
  set: PackageVariantSet;
  template: z.infer<typeof templateSchema> | undefined;
  repoDefault: string;
  packageDefault: string;
}): PackageVariantSpec {
  const { set, template: t, repoDefault, packageDefault } = options;
  const upstream = set.spec.upstream;
  const inputs: Inputs = {
    repoDefault,
    packageDefault,
    upstream: objectInput(
      `${(upstream?.repo ?? "").split("/").pop()}.${(upstream?.package ?? "").replace(/\//g, ".")}.v${String(upstream?.revision ?? "")}`,
    ),
    target: { repo: repoDefault, package: packageDefault },
  };
  let repo = repoDefault;
  if (t?.downstream?.repo) repo = t.downstream.repo;
  if (t?.downstream?.repoExpr) repo = evalExpr("template.downstream.repoExpr", t.downstream.repoExpr, inputs);
  inputs.repository = objectInput(repo.split("/").pop() ?? repo);
  let pkg = packageDefault;
  if (t?.downstream?.package) pkg = t.downstream.package;
  if (t?.downstream?.packageExpr)
    pkg = evalExpr("template.downstream.packageExpr", t.downstream.packageExpr, inputs);
  const spec: PackageVariantSpec = { upstream, downstream: { repo, package: pkg } };
  if (!t) return spec;
  if (t.adoptionPolicy) spec.adoptionPolicy = t.adoptionPolicy;
  if (t.deletionPolicy) spec.deletionPolicy = t.deletionPolicy;
  const labels = overlayMap("template.labelExprs", t.labels, t.labelExprs, inputs);
  if (labels) spec.labels = labels;
  const annotations = overlayMap("template.annotationExprs", t.annotations, t.annotationExprs, inputs);
  if (annotations) spec.annotations = annotations;
  if (t.packageContext) {
    const data = overlayMap(
      "template.packageContext.dataExprs",
      t.packageContext.data,
      t.packageContext.dataExprs,
      inputs,
    );
    const remove = new Set(t.packageContext.removeKeys ?? []);
    for (const [i, e] of (t.packageContext.removeKeyExprs ?? []).entries()) {
      remove.add(evalExpr(`template.packageContext.removeKeyExprs[${i}]`, e, inputs));
    }
    spec.packageContext = {
      ...(data ? { data } : {}),
      ...(remove.size > 0 ? { removeKeys: [...remove].sort() } : {}),
    };
  }
  if (t.injectors) {
    spec.injectors = t.injectors.map((inj, i) => {
      const name = inj.nameExpr
        ? evalExpr(`template.injectors[${i}].nameExpr`, inj.nameExpr, inputs)
        : (inj.name ?? "");
      return injectorSchema.parse({ group: inj.group, version: inj.version, kind: inj.kind, name });
    });
  }
  if (t.pipeline) {
    const render = (field: string, list: z.infer<typeof functionTemplate>[] | undefined) =>
      list?.map((f, i) => {
        const { configMapExprs, ...fn } = f;
        const configMap = overlayMap(
          `template.pipeline.${field}[${i}].configMapExprs`,
          fn.configMap as Record<string, string> | undefined,
          configMapExprs,
          inputs,
        );
        return { ...fn, ...(configMap ? { configMap } : {}) };
      });
    const mutators = render("mutators", t.pipeline.mutators);
    const validators = render("validators", t.pipeline.validators);
    if (mutators?.length || validators?.length) {
      spec.pipeline = {
        ...(mutators?.length ? { mutators } : {}),
        ...(validators?.length ? { validators } : {}),
      } as PackageVariantSpec["pipeline"];
    }
  }
  return spec;
}

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
