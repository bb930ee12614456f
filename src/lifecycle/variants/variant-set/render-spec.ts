/**
 * Porch's `renderPackageVariantSpec`: one target's PackageVariant spec from a set's template, its
 * CEL expressions (`*Expr`) evaluated with Porch's inputs.
 */
import { isCelError, run } from "@bufbuild/cel";
import type { z } from "zod";
import { injectorSchema, type PackageVariantSpec } from "../package-variant.js";
import type { functionTemplate, mapExpr, PackageVariantSet, templateSchema } from "./schema.js";

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

type Template = z.infer<typeof templateSchema>;

/** The expression inputs and the downstream (`repo`/`repoExpr`, `package`/`packageExpr`) of a target. */
function renderDownstream(options: {
  set: PackageVariantSet;
  template: Template | undefined;
  repoDefault: string;
  packageDefault: string;
}): { inputs: Inputs; repo: string; pkg: string } {
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
  return { inputs, repo, pkg };
}

/** The template's `packageContext`: data overlaid with `dataExprs`, `removeKeys` with `removeKeyExprs`. */
function renderPackageContext(
  pc: NonNullable<Template["packageContext"]>,
  inputs: Inputs,
): PackageVariantSpec["packageContext"] {
  const data = overlayMap("template.packageContext.dataExprs", pc.data, pc.dataExprs, inputs);
  const remove = new Set(pc.removeKeys ?? []);
  for (const [i, e] of (pc.removeKeyExprs ?? []).entries()) {
    remove.add(evalExpr(`template.packageContext.removeKeyExprs[${i}]`, e, inputs));
  }
  return {
    ...(data ? { data } : {}),
    ...(remove.size > 0 ? { removeKeys: [...remove].sort() } : {}),
  };
}

/** The template's pipeline with each function's `configMapExprs` overlaid; undefined when empty. */
function renderPipeline(
  pipeline: NonNullable<Template["pipeline"]>,
  inputs: Inputs,
): PackageVariantSpec["pipeline"] | undefined {
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
  const mutators = render("mutators", pipeline.mutators);
  const validators = render("validators", pipeline.validators);
  if (!mutators?.length && !validators?.length) return undefined;
  return {
    ...(mutators?.length ? { mutators } : {}),
    ...(validators?.length ? { validators } : {}),
  } as PackageVariantSpec["pipeline"];
}

/** Porch's `renderPackageVariantSpec` for one repository target. */
export function renderSpec(options: {
  set: PackageVariantSet;
  template: Template | undefined;
  repoDefault: string;
  packageDefault: string;
}): PackageVariantSpec {
  const { template: t } = options;
  const { inputs, repo, pkg } = renderDownstream(options);
  const spec: PackageVariantSpec = {
    upstream: options.set.spec.upstream,
    downstream: { repo, package: pkg },
  };
  if (!t) return spec;
  if (t.adoptionPolicy) spec.adoptionPolicy = t.adoptionPolicy;
  if (t.deletionPolicy) spec.deletionPolicy = t.deletionPolicy;
  const labels = overlayMap("template.labelExprs", t.labels, t.labelExprs, inputs);
  if (labels) spec.labels = labels;
  const annotations = overlayMap("template.annotationExprs", t.annotations, t.annotationExprs, inputs);
  if (annotations) spec.annotations = annotations;
  if (t.packageContext) spec.packageContext = renderPackageContext(t.packageContext, inputs);
  if (t.injectors) {
    spec.injectors = t.injectors.map((inj, i) => {
      const name = inj.nameExpr
        ? evalExpr(`template.injectors[${i}].nameExpr`, inj.nameExpr, inputs)
        : (inj.name ?? "");
      return injectorSchema.parse({ group: inj.group, version: inj.version, kind: inj.kind, name });
    });
  }
  const pipeline = t.pipeline ? renderPipeline(t.pipeline, inputs) : undefined;
  if (pipeline) spec.pipeline = pipeline;
  return spec;
}
