/**
 * Writing the root Kptfile with its status the way kpt does: the Kptfile is re-serialized from its
 * typed struct (Go yaml.v3 marshalling): kpt's field order, map keys sorted, empty fields omitted,
 * Go's quoting rules, sequences indented under their key (kyaml "wide" style), comments dropped.
 */
import type { FunctionResult } from "../krm/resource-list.js";
import { goMarshal } from "./go-marshal.js";
import type { KptFunction, Kptfile, Selector } from "./schema.js";
import type { KptfileStatus, StepStatus } from "./status.js";

type Ordered = Record<string, unknown>;

function sortedMap(map: Record<string, string> | undefined, keepEmpty = false): Ordered | undefined {
  if (!map || (Object.keys(map).length === 0 && !keepEmpty)) return undefined;
  const out: Ordered = {};
  for (const key of Object.keys(map).sort()) out[key] = map[key];
  return out;
}

/** Builds an object with keys in the given order, dropping Go `omitempty` zero values. */
function ordered(entries: Array<[string, unknown]>): Ordered {
  const out: Ordered = {};
  for (const [key, value] of entries) put(out, key, value);
  return out;
}

function isEmpty(value: Ordered): boolean {
  for (const _ in value) return false;
  return true;
}

function selector(s: Selector): Ordered {
  return ordered([
    ["apiVersion", s.apiVersion],
    ["kind", s.kind],
    ["name", s.name],
    ["namespace", s.namespace],
    ["labels", sortedMap(s.labels)],
    ["annotations", sortedMap(s.annotations)],
    ["resourceFileRegexp", s.resourceFileRegexp],
  ]);
}

function fn(f: KptFunction): Ordered {
  return ordered([
    ["image", f.image],
    ["exec", f.exec],
    ["configPath", f.configPath],
    // An explicit `configMap: {}` is kept (older kpt left the Kptfile untouched; catalog cases rely on it).
    ["configMap", sortedMap(f.configMap, true)],
    ["config", f.config],
    ["name", f.name],
    ["tag", f.tag],
    ["selectors", f.selectors?.map(selector)],
    ["exclude", f.exclude?.map(selector)],
    ["when", f.when],
    ["condition", f.condition],
  ]);
}

/** Sets `key` unless `value` is a Go `omitempty` zero value (as {@link ordered} leaves it out). */
function put(out: Ordered, key: string, value: unknown): void {
  if (value === undefined || value === null || value === "") return;
  if (Array.isArray(value) && value.length === 0) return;
  out[key] = value;
}

/** One result in kpt's `Result` field order (built field by field: a status can hold many). */
function result(r: FunctionResult): Ordered {
  const out: Ordered = {};
  put(out, "message", r.message);
  put(out, "severity", r.severity);
  if (r.resourceRef) {
    const ref: Ordered = {};
    put(ref, "apiVersion", r.resourceRef.apiVersion);
    put(ref, "kind", r.resourceRef.kind);
    put(ref, "name", r.resourceRef.name);
    put(ref, "namespace", r.resourceRef.namespace);
    if (!isEmpty(ref)) out.resourceRef = ref;
  }
  if (r.field) {
    const field: Ordered = {};
    put(field, "path", r.field.path);
    put(field, "currentValue", goText(r.field.currentValue));
    put(field, "proposedValue", goText(r.field.proposedValue));
    if (!isEmpty(field)) out.field = field;
  }
  if (r.file) {
    const file: Ordered = {};
    put(file, "path", r.file.path);
    put(file, "index", r.file.index ? r.file.index : undefined);
    if (!isEmpty(file)) out.file = file;
  }
  return out;
}

function goText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** One step in kpt's `PipelineStepResult` field order. */
export function stepObject(step: StepStatus): Ordered {
  return ordered([
    ["image", step.image],
    ["exec", step.exec],
    ["executionError", step.executionError],
    ["stderr", step.stderr],
    ["exitCode", step.exitCode],
    ["results", step.results?.map(result)],
    ["errorResults", step.errorResults?.map(result)],
    ["when", step.when],
    ["skipped", step.skipped === true ? true : undefined],
  ]);
}

/** The status in kpt's `Status` field order. */
export function statusObject(status: KptfileStatus): Ordered {
  const render = status.renderStatus
    ? ordered([
        ["mutationSteps", status.renderStatus.mutationSteps?.map(stepObject)],
        ["validationSteps", status.renderStatus.validationSteps?.map(stepObject)],
        ["errorSummary", status.renderStatus.errorSummary],
      ])
    : undefined;
  return ordered([
    [
      "conditions",
      status.conditions.map((c) =>
        ordered([
          ["type", c.type],
          ["status", c.status],
          ["reason", c.reason],
          ["message", c.message],
        ]),
      ),
    ],
    ["renderStatus", render && !isEmpty(render) ? render : undefined],
  ]);
}

/** The whole Kptfile in kpt's struct order. */
/**
 * The Kptfile as kpt's struct marshals it: kpt's field order, map keys sorted, empty fields left out;
 * `status` replaced by the given one (none: left out).
 */
export function kptfileObject(k: Kptfile, status: KptfileStatus | undefined): Ordered {
  const meta = k.metadata
    ? ordered([
        ["name", k.metadata.name],
        ["namespace", k.metadata.namespace],
        ["labels", sortedMap(k.metadata.labels)],
        ["annotations", sortedMap(k.metadata.annotations)],
      ])
    : undefined;
  const pipeline = k.pipeline
    ? ordered([
        ["mutators", k.pipeline.mutators?.map(fn)],
        ["validators", k.pipeline.validators?.map(fn)],
      ])
    : undefined;
  const inventory = k.inventory
    ? ordered([
        ["namespace", k.inventory.namespace],
        ["name", k.inventory.name],
        ["inventoryID", k.inventory.inventoryID],
        ["labels", sortedMap(k.inventory.labels)],
        ["annotations", sortedMap(k.inventory.annotations)],
      ])
    : undefined;
  return ordered([
    ["apiVersion", k.apiVersion],
    ["kind", k.kind],
    ["metadata", meta && !isEmpty(meta) ? meta : undefined],
    ["upstream", upstreamObject(k.upstream)],
    ["upstreamLock", upstreamLockObject(k.upstreamLock)],
    ["info", infoObject(k.info)],
    ["pipeline", pipeline],
    ["inventory", inventory],
    ["status", status ? statusObject(status) : undefined],
  ]);
}

function infoObject(info: Kptfile["info"]): Ordered | undefined {
  if (!info) return undefined;
  return ordered([
    ["site", info.site],
    ["emails", info.emails],
    ["license", info.license],
    ["licenseFile", info.licenseFile],
    ["description", info.description],
    ["keywords", info.keywords],
    ["man", info.man],
    ["readinessGates", info.readinessGates?.map((g) => ({ conditionType: g.conditionType }))],
  ]);
}

function upstreamObject(upstream: Kptfile["upstream"]): Ordered | undefined {
  if (!upstream) return undefined;
  return ordered([
    ["type", upstream.type],
    ["git", upstream.git ? ordered(Object.entries(upstream.git)) : undefined],
    ["updateStrategy", upstream.updateStrategy],
  ]);
}

function upstreamLockObject(lock: Kptfile["upstreamLock"]): Ordered | undefined {
  if (!lock) return undefined;
  const git = lock.git
    ? ordered([
        ["repo", lock.git.repo],
        ["directory", lock.git.directory],
        ["ref", lock.git.ref],
        ["commit", lock.git.commit],
      ])
    : undefined;
  return ordered([
    ["type", lock.type],
    ["git", git],
    ["generic", lock.generic ? ordered(Object.entries(lock.generic)) : undefined],
  ]);
}

/** The root Kptfile's text with `status` set, as kpt writes it. */
export function writeKptfileWithStatus(kptfile: Kptfile, status: KptfileStatus): string {
  return goMarshal(kptfileObject(kptfile, status), builtAnew(status) ? ["status"] : []);
}

const isPrimitive = (value: unknown): boolean => typeof value !== "object" || value === null;

/**
 * Whether {@link statusObject} builds every object of its value anew: the values it takes as they are
 * (strings of the steps and results; a function's result could hold other data) are all primitives.
 */
function builtAnew(status: KptfileStatus): boolean {
  for (const c of status.conditions)
    if (!isPrimitive(c.type) || !isPrimitive(c.status) || !isPrimitive(c.reason) || !isPrimitive(c.message))
      return false;
  const steps = [
    ...(status.renderStatus?.mutationSteps ?? []),
    ...(status.renderStatus?.validationSteps ?? []),
  ];
  for (const step of steps) {
    if (!isPrimitive(step.image) || !isPrimitive(step.exec) || !isPrimitive(step.executionError))
      return false;
    if (!isPrimitive(step.stderr) || !isPrimitive(step.exitCode) || !isPrimitive(step.when)) return false;
    for (const list of [step.results, step.errorResults]) {
      for (const r of list ?? []) {
        if (!isPrimitive(r.message) || !isPrimitive(r.severity)) return false;
        if (r.field && !isPrimitive(r.field.path)) return false;
        if (r.file && (!isPrimitive(r.file.path) || !isPrimitive(r.file.index))) return false;
        const ref = r.resourceRef;
        if (ref && (!isPrimitive(ref.apiVersion) || !isPrimitive(ref.kind))) return false;
        if (ref && (!isPrimitive(ref.name) || !isPrimitive(ref.namespace))) return false;
      }
    }
  }
  return isPrimitive(status.renderStatus?.errorSummary);
}
