/**
 * The KRM function wire types, as in the kpt function specification
 * (`config.kubernetes.io/v1` ResourceList, `kpt.dev/v1` results).
 *
 * Resources travel as `yaml` Documents so that comments, key order and scalar styles survive a
 * function that does not touch them. While a resource is inside a pipeline it carries kpt's
 * path/index annotations (see `./annotations.ts`); the engine adds them before the first function
 * and strips them before files are written.
 */
import type { Document } from "yaml";
import type { YNode } from "../yaml/node.js";

/** One KRM resource: a YAML document whose contents is a mapping with apiVersion/kind/metadata. */
export type KrmResource = Document;

/**
 * Severity of a function result, as in kpt's `framework.Severity`; `warn` is the catalog's
 * TypeScript SDK spelling of a warning (kept as the function wrote it, as kpt does).
 */
export type ResultSeverity = "error" | "warning" | "warn" | "info";

/** Reference to the resource a result is about (kpt's `ResourceRef`). */
export interface ResultResourceRef {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
}

/** One result a function reports (kpt's `framework.Result`, field order as kpt serialises it). */
export interface FunctionResult {
  message: string;
  severity?: ResultSeverity;
  resourceRef?: ResultResourceRef;
  /** The field the result is about: `path` is a dotted field path such as `spec.replicas`. */
  field?: { path: string; currentValue?: unknown; proposedValue?: unknown };
  /** The file the resource lives in, relative to the package root, and its document index. */
  file?: { path: string; index?: number };
  tags?: Record<string, string>;
}

/**
 * The input and output of one KRM function run (kpt's `ResourceList`): `items` are every resource of
 * the package (Kptfiles included, as kpt does), `functionConfig` the step's configuration (a ConfigMap
 * built from `configMap:` or the document named by `configPath:`), `results` what the function said.
 */
export interface ResourceList {
  items: KrmResource[];
  functionConfig?: KrmResource;
  results: FunctionResult[];
}

/**
 * A ResourceList whose items are our YAML layer's document nodes (`Kind.Document`, shaped like
 * yaml.v3's `yaml.Node`, as kyaml's functions see them): the engine's working form, with no `yaml`
 * Document made on the way. The functionConfig stays a `yaml` Document (one small document a step).
 */
export interface NodeResourceList {
  items: YNode[];
  functionConfig?: KrmResource;
  results: FunctionResult[];
}
