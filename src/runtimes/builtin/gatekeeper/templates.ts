/**
 * ConstraintTemplates (`templates.gatekeeper.sh` v1, v1beta1, v1alpha1) read from the package's
 * resources and checked as Gatekeeper's constraint framework checks them when a template is added:
 * name equal to the lowercased CRD kind, exactly one target, the `admission.k8s.gatekeeper.sh`
 * target, Rego that parses and has a `violation` rule, libs under `package lib.*`. Errors are worded
 * as the catalog's function reports them (`adding template "<name>": invalid ConstraintTemplate: ...`).
 *
 * The policy is the target's `rego` + `libs`, or (newer Gatekeeper) the `code[]` entry with
 * `engine: Rego` (`source.rego` + `source.libs`); a template whose only code is
 * `engine: K8sNativeValidation` is a CEL template (see `./cel.ts`).
 */
import { GatekeeperError } from "./errors.js";

/** The only target Gatekeeper's validation knows. */
export const ADMISSION_TARGET = "admission.k8s.gatekeeper.sh";
const TEMPLATE_VERSIONS = ["v1", "v1beta1", "v1alpha1"];

type Json = Record<string, unknown>;

/** A template's Rego: the entry module and its libraries. */
export interface RegoCode {
  rego: string;
  libs: string[];
}

/** A template ready to be instantiated by constraints. */
export interface ConstraintTemplate {
  /** `metadata.name`. */
  name: string;
  /** The constraint kind it defines (`spec.crd.spec.names.kind`). */
  kind: string;
  /** `spec.crd.spec.validation.openAPIV3Schema`: the schema of the constraints' `spec.parameters`. */
  parametersSchema?: Json;
  rego?: RegoCode;
  /** The `source` of a `K8sNativeValidation` code entry, used when the template has no Rego. */
  cel?: Json;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Go's encoding/json name of a JSON value's type, for unmarshal errors. */
function jsonType(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  if (typeof value === "object") return "object";
  return typeof value === "boolean" ? "bool" : typeof value;
}

function unmarshalError(value: unknown, struct: string, field: string, goType: string): GatekeeperError {
  return new GatekeeperError(
    `adding template: json: cannot unmarshal ${jsonType(value)} into Go struct field ${struct}.${field} of type ${goType}`,
  );
}

/** Reads a field that Go would decode as `goType` (null decodes to the zero value). */
function typed<T>(
  owner: Json,
  key: string,
  want: (v: unknown) => v is T,
  where: [string, string, string],
): T | undefined {
  const value = owner[key];
  if (value === undefined || value === null) return undefined;
  if (!want(value)) throw unmarshalError(value, ...where);
  return value;
}

const isString = (v: unknown): v is string => typeof v === "string";
const isArray = (v: unknown): v is unknown[] => Array.isArray(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

interface RawTarget {
  target: string;
  rego: string;
  libs: string[];
  code: Array<{ engine: string; source: Json }>;
}

function readTarget(raw: unknown): RawTarget {
  if (!isObject(raw)) throw unmarshalError(raw, "ConstraintTemplateSpec", "spec.targets", "v1.Target");
  const code = (typed(raw, "code", isArray, ["Target", "spec.targets.code", "[]v1.Code"]) ?? []).map((c) => {
    if (!isObject(c)) throw unmarshalError(c, "Target", "spec.targets.code", "v1.Code");
    const engine = typed(c, "engine", isString, ["Code", "spec.targets.code.engine", "string"]) ?? "";
    const source = c.source;
    return { engine, source: isObject(source) ? source : {} };
  });
  return {
    target: typed(raw, "target", isString, ["Target", "spec.targets.target", "string"]) ?? "",
    rego: typed(raw, "rego", isString, ["Target", "spec.targets.rego", "string"]) ?? "",
    libs: typed(raw, "libs", isStringArray, ["Target", "spec.targets.libs", "[]string"]) ?? [],
    code,
  };
}

/** The Rego of a target: `rego`/`libs`, else the `code[]` entry with `engine: Rego`. */
function regoOf(target: RawTarget): RegoCode | undefined {
  if (target.rego !== "") return { rego: target.rego, libs: target.libs };
  const entry = target.code.find((c) => c.engine === "Rego");
  if (!entry) return undefined;
  const rego = entry.source.rego;
  const libs = entry.source.libs;
  if (typeof rego !== "string" || rego === "") return undefined;
  return { rego, libs: isStringArray(libs) ? libs : [] };
}

function crdSpecOf(spec: Json): { kind: string; schema?: Json } {
  const crd = typed(spec, "crd", isObject, ["ConstraintTemplateSpec", "spec.crd", "v1.CRD"]) ?? {};
  const crdSpec = typed(crd, "spec", isObject, ["CRD", "spec.crd.spec", "v1.CRDSpec"]) ?? {};
  const names = typed(crdSpec, "names", isObject, ["CRDSpec", "spec.crd.spec.names", "v1.Names"]) ?? {};
  const kind = typed(names, "kind", isString, ["Names", "spec.crd.spec.names.kind", "string"]) ?? "";
  const validation =
    typed(crdSpec, "validation", isObject, ["CRDSpec", "spec.crd.spec.validation", "v1.Validation"]) ?? {};
  const schema = validation.openAPIV3Schema;
  return isObject(schema) ? { kind, schema } : { kind };
}

/** Whether a resource is a ConstraintTemplate (any version: a wrong one is reported when read). */
export function isTemplate(object: Json): boolean {
  const apiVersion = typeof object.apiVersion === "string" ? object.apiVersion : "";
  return apiVersion.split("/")[0] === "templates.gatekeeper.sh" && object.kind === "ConstraintTemplate";
}

function convert(object: Json, name: string): { spec: Json } {
  const apiVersion = String(object.apiVersion);
  const version = apiVersion.split("/")[1] ?? "";
  const wrap = (message: string) =>
    new GatekeeperError(`converting unstructured ${JSON.stringify(name)} to template: ${message}`);
  if (!TEMPLATE_VERSIONS.includes(version)) {
    throw wrap(
      `adding template: no kind "ConstraintTemplate" is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/runtime/scheme.go:100"`,
    );
  }
  try {
    const spec = typed(object, "spec", isObject, ["ConstraintTemplate", "spec", "v1.ConstraintTemplateSpec"]);
    return { spec: spec ?? {} };
  } catch (err) {
    throw wrap((err as Error).message);
  }
}

/**
 * Reads a ConstraintTemplate resource and checks what Gatekeeper checks before compiling its Rego.
 * @throws GatekeeperError worded as the catalog's function.
 */
export function readTemplate(object: Json): ConstraintTemplate {
  const metadata = isObject(object.metadata) ? object.metadata : {};
  const name = typeof metadata.name === "string" ? metadata.name : "";
  const { spec } = convert(object, name);
  let targets: RawTarget[] | undefined;
  let crd: { kind: string; schema?: Json };
  try {
    crd = crdSpecOf(spec);
    const rawTargets = typed(spec, "targets", isArray, [
      "ConstraintTemplateSpec",
      "spec.targets",
      "[]v1.Target",
    ]);
    targets = rawTargets?.map(readTarget);
  } catch (err) {
    throw new GatekeeperError(
      `converting unstructured ${JSON.stringify(name)} to template: ${(err as Error).message}`,
    );
  }
  const fail = (message: string) =>
    new GatekeeperError(`adding template ${JSON.stringify(name)}: invalid ConstraintTemplate: ${message}`);
  if (name === "") throw fail("missing name");
  if (crd.kind === "") throw fail(`ConstraintTemplate ${JSON.stringify(name)} does not specify CRD Kind`);
  if (name.toLowerCase() !== crd.kind.toLowerCase()) {
    throw fail(
      `the ConstraintTemplate's name ${JSON.stringify(name)} is not equal to the lowercase of CRD's Kind: ${JSON.stringify(crd.kind.toLowerCase())}`,
    );
  }
  const targetProblem = (message: string) =>
    new GatekeeperError(
      `adding template ${JSON.stringify(name)}: failed to validate targets for template ${name}: invalid ConstraintTemplate: ${message}`,
    );
  if (targets === undefined) throw targetProblem(`field "targets" not specified in ConstraintTemplate spec`);
  if (targets.length === 0)
    throw targetProblem("no targets specified: ConstraintTemplate must specify one target");
  if (targets.length > 1) throw targetProblem("multi-target templates are not currently supported");
  const [target] = targets;
  if (target.target !== ADMISSION_TARGET) {
    throw targetProblem(
      `target ${JSON.stringify(target.target)} not recognized, known targets [${ADMISSION_TARGET}]`,
    );
  }
  const template: ConstraintTemplate = { name, kind: crd.kind };
  if (crd.schema) template.parametersSchema = crd.schema;
  const rego = regoOf(target);
  if (rego) template.rego = rego;
  else {
    const cel = target.code.find((c) => c.engine === "K8sNativeValidation");
    if (!cel) {
      throw fail(
        "the target has no Rego (neither `rego` nor a `code` entry with `engine: Rego`) and no `engine: K8sNativeValidation` code",
      );
    }
    template.cel = cel.source;
  }
  return template;
}
