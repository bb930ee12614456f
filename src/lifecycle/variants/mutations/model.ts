/** What the variant mutations share: Porch's annotations, the shapes of their outcome, their error, YAML node helpers. */
import { isMap, Scalar, YAMLMap } from "yaml";
import type { FileTree } from "../../../pkg/files.js";

/** Porch's annotation marking an injection point (`required` or `optional`). */
export const CONFIG_INJECTION = "kpt.dev/config-injection";
/** Porch's annotation naming the resource injected into an injection point. */
export const INJECTED_RESOURCE = "kpt.dev/injected-resource";
/** The package context file and its ConfigMap name (kpt's `gen-pkg-context`). */
export const PACKAGE_CONTEXT_FILE = "package-context.yaml";
export const PACKAGE_CONTEXT_NAME = "kptfile.kpt.dev";

/** A resource that can be injected (plain data, as read from the injectors directory). */
export interface Injectable {
  apiVersion: string;
  kind: string;
  name: string;
  data: Record<string, unknown>;
}

/** The outcome of one injection point (a Kptfile condition). */
export interface InjectionResult {
  file: string;
  conditionType: string;
  required: boolean;
  status: "True" | "False";
  reason: string;
  message: string;
}

/** The mutated package. */
export interface MutationResult {
  files: FileTree;
  changed: boolean;
  injections: InjectionResult[];
}

/** A mutation that cannot be applied (Porch's errors), naming the file. */
export class MutationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MutationError";
  }
}

/** A plain string scalar (the style the serializer chooses). */
export function str(value: string): Scalar {
  const s = new Scalar(value);
  return s;
}

/** The map at `key` of `parent`, created empty when missing. */
export function mapAt(parent: YAMLMap, key: string): YAMLMap {
  const existing = parent.get(key, true);
  if (isMap(existing)) return existing;
  const created = new YAMLMap();
  parent.set(key, created);
  return created;
}
