/**
 * A pipeline step's functionConfig, as kpt builds it: `configMap:` becomes a `ConfigMap` named
 * `function-input`; `configPath:` names a file of the package (relative, inside the package, one
 * document with `metadata.name`), which is also one of the package's resources. Also kpt's static
 * checks of those fields (`KptFile.Validate`), worded as kpt words them.
 */
import { Document, parseAllDocuments, Scalar, YAMLMap } from "yaml";
import type { KptFunction, Kptfile } from "../kptfile/schema.js";
import { compileRe2 } from "../krm/re2.js";
import { isNullDocument } from "../krm/yaml-chunks.js";
import { goStringStyle } from "../yaml/go-style.js";
import { kptfileFieldError } from "./errors.js";
import type { StepOrigin } from "./function-runtime.js";
import { functionName } from "./image.js";

/** A step of a package's pipeline with its position (for messages like `pipeline.mutators[1]`). */
export interface PipelineStep {
  kind: "mutator" | "validator";
  index: number;
  fn: KptFunction;
  /**
   * The image as kpt records it (prefix, `tag`, `:latest`; see `statusImage`), once resolved for a
   * run; `stepLabel` falls back to the default prefix.
   */
  label?: string;
}

/** The steps of a Kptfile's pipeline: mutators, then validators. */
export function pipelineSteps(kptfile: Kptfile): PipelineStep[] {
  const mutators = (kptfile.pipeline?.mutators ?? []).map((fn, index) => ({
    kind: "mutator" as const,
    index,
    fn,
  }));
  const validators = (kptfile.pipeline?.validators ?? []).map((fn, index) => ({
    kind: "validator" as const,
    index,
    fn,
  }));
  return [...mutators, ...validators];
}

/** A render step's place for the runtime's messages: its Kptfile (`sub/Kptfile`) and field. */
export function stepOrigin(pkg: string, step: PipelineStep): StepOrigin {
  return { kptfile: pkg === "" ? "Kptfile" : `${pkg}/Kptfile`, field: stepField(step) };
}

/** `pipeline.mutators[0]`-style field prefix of a step. */
export function stepField(step: PipelineStep): string {
  return `pipeline.${step.kind}s[${step.index}]`;
}

/** Normalizes a relative POSIX path (`a/./b/../c` -> `a/c`); leading `..` segments are kept. */
export function cleanPath(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else out.push(part);
  }
  return out.join("/");
}

/** A `resourceFileRegexp` of the step's selectors / exclusions that does not compile, as a field error. */
function invalidFileRegexp(fn: KptFunction, field: string): string | undefined {
  for (const key of ["selectors", "exclude"] as const) {
    for (const [i, selector] of (fn[key] ?? []).entries()) {
      const pattern = selector.resourceFileRegexp;
      if (pattern === undefined) continue;
      try {
        compileRe2(pattern);
      } catch (err) {
        return kptfileFieldError({
          field: `${field}.${key}[${i}].resourceFileRegexp`,
          value: pattern,
          reason: `invalid regular expression: ${(err as Error).message}`,
        });
      }
    }
  }
  return undefined;
}

/**
 * kpt's static Kptfile validation of the pipeline (`KptFile.Validate`). `readFile` reads a file
 * relative to the package; `displayDir` is how the package directory appears in messages.
 * Returns the error text (kpt's `Kptfile is invalid:` form), or undefined when valid.
 */
export function validatePipeline(options: {
  kptfile: Kptfile;
  readFile: (relPath: string) => string | undefined;
  displayDir: string;
}): string | undefined {
  for (const step of pipelineSteps(options.kptfile)) {
    const invalid = invalidStep(step, options);
    if (invalid) return invalid;
  }
  return undefined;
}

/** One step's static problems: no function, a bad file regexp, two config sources, a bad configPath. */
function invalidStep(
  step: PipelineStep,
  options: { readFile: (relPath: string) => string | undefined; displayDir: string },
): string | undefined {
  const field = stepField(step);
  const { fn } = step;
  if (!fn.image && !fn.exec) {
    return kptfileFieldError({
      field: `${field}.image`,
      value: "",
      reason: "must specify a function (`image` or `exec`)",
    });
  }
  const badRegexp = invalidFileRegexp(fn, field);
  if (badRegexp) return badRegexp;
  const given = [
    fn.config ? "config" : "",
    fn.configPath !== undefined ? "configPath" : "",
    fn.configMap ? "configMap" : "",
  ].filter(Boolean);
  if (given.length > 1) {
    return `only one of 'config', 'configMap', 'configPath' can be specified. Got ${JSON.stringify(given.join(", "))}`;
  }
  if (fn.configPath === undefined) return undefined;
  return invalidConfigPath(fn.configPath, `${field}.configPath`, options);
}

/** A `configPath:` that is absolute, leaves the package, is missing, unreadable, or not one named config. */
function invalidConfigPath(
  configPath: string,
  cfgField: string,
  options: { readFile: (relPath: string) => string | undefined; displayDir: string },
): string | undefined {
  const fieldError = (reason: string) => kptfileFieldError({ field: cfgField, value: configPath, reason });
  if (configPath.startsWith("/")) return fieldError("path must be relative");
  const cleaned = cleanPath(configPath);
  if (cleaned === ".." || cleaned.startsWith("../"))
    return fieldError("path must not be outside the package");
  const text = options.readFile(cleaned);
  if (text === undefined) {
    return fieldError(
      `failed to open functionConfig from path ${JSON.stringify(configPath)}: open ${options.displayDir}/${configPath}: no such file or directory`,
    );
  }
  const docs = parseAllDocuments(text);
  const list = Array.isArray(docs) ? docs.filter((d) => d.errors.length > 0 || !isNullDocument(d)) : [];
  if (list.some((d) => d.errors.length > 0)) {
    return fieldError(
      `failed to read functionConfig from path ${JSON.stringify(configPath)}: ${list.flatMap((d) => d.errors)[0].message.split("\n")[0]}`,
    );
  }
  if (list.length > 1) {
    return `functionConfig ${JSON.stringify(configPath)} must not contain more than one config, got ${list.length}`;
  }
  const name = list[0]?.getIn(["metadata", "name"]);
  if (name === undefined || name === null || name === "") {
    return fieldError(
      "functionConfig resource must have `metadata.name`: resource must have `metadata.name`",
    );
  }
  return undefined;
}

/** The ConfigMap kpt builds from `configMap:` (name `function-input`, local-config, data sorted). */
export function configMapConfig(data: Record<string, string>): Document {
  const doc = new Document({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "function-input", annotations: { "config.kubernetes.io/local-config": "true" } },
  });
  const dataMap = new YAMLMap();
  for (const key of Object.keys(data).sort()) {
    const value = new Scalar(data[key]);
    value.type = goStringStyle(data[key]);
    dataMap.set(key, value);
  }
  (doc.contents as YAMLMap).set("data", dataMap);
  return doc;
}

/** The name kpt uses for a step in messages: the image's function name or the exec command. */
export function stepDisplayName(fn: KptFunction): string {
  return fn.image ? functionName(fn.image) : (fn.exec ?? "");
}
