/**
 * The builtin runtime: in-process TypeScript versions of catalog functions, matched by the function's
 * name whatever registry prefix, tag or digest the Kptfile uses
 * (`ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2`, `gcr.io/kpt-fn/set-labels:unstable`,
 * `set-labels`, `set-labels@sha256:…`).
 */
import type { FunctionResult, ResourceList } from "../../krm/resource-list.js";
import type { FunctionRunOutcome, FunctionRuntime } from "../runtime.js";
import { applyReplacements } from "./apply-replacements.js";
import { applySetters } from "./apply-setters.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { createSetters } from "./create-setters.js";
import { dropComments } from "./drop-comments.js";
import { enableGcpServices } from "./enable-gcp-services.js";
import { ensureNameSubstring } from "./ensure-name-substring.js";
import { fix } from "./fix.js";
import { generateFolders } from "./generate-folders.js";
import { listSetters } from "./list-setters.js";
import { noOp } from "./no-op.js";
import { removeLocalConfigResources } from "./remove-local-config-resources.js";
import { kubeconform, kubeval } from "./schema-validators.js";
import { searchReplace } from "./search-replace.js";
import { setAnnotations } from "./set-annotations.js";
import { setEnforcementAction } from "./set-enforcement-action.js";
import { setImage } from "./set-image.js";
import { setLabels } from "./set-labels.js";
import { setNamespace } from "./set-namespace.js";
import { setProjectId } from "./set-project-id.js";
import { upsertResource } from "./upsert-resource.js";

/** What the Go SDK's `fn.AsMain` prints to stderr when a function reports failure. */
export const SDK_FAILURE_STDERR = "failed to evaluate function: error: function failure";

/** Every builtin function, in catalog-name order. */
export const BUILTIN_FUNCTIONS: readonly BuiltinFunction[] = [
  applyReplacements,
  applySetters,
  createSetters,
  dropComments,
  enableGcpServices,
  ensureNameSubstring,
  fix,
  generateFolders,
  kubeconform,
  kubeval,
  listSetters,
  noOp,
  removeLocalConfigResources,
  searchReplace,
  setAnnotations,
  setEnforcementAction,
  setImage,
  setLabels,
  setNamespace,
  setProjectId,
  upsertResource,
];

/**
 * The catalog name of an image reference: the last path segment without tag or digest.
 * `gcr.io/kpt-fn/set-image:v0.1@sha256:abc` -> `set-image`; `localhost:5000/x/no-op` -> `no-op`.
 */
export function functionNameOf(image: string): string {
  let ref = image.trim();
  const at = ref.indexOf("@");
  if (at >= 0) ref = ref.slice(0, at);
  const lastSlash = ref.lastIndexOf("/");
  const lastColon = ref.lastIndexOf(":");
  if (lastColon > lastSlash) ref = ref.slice(0, lastColon);
  return ref.slice(ref.lastIndexOf("/") + 1);
}

/**
 * Catalog functions deliberately not built in, with why and how to run them instead (the text the
 * "cannot run" message gives for them).
 */
const NOT_BUILTIN: Readonly<Record<string, string>> = {
  gatekeeper:
    "gatekeeper evaluates Rego policies, and porchlight has no in-process Rego evaluator: none sound exists " +
    "on npm (OPA's packages evaluate policies precompiled to WebAssembly by the opa CLI, or call an OPA server); " +
    "run this step with the container runtime (docker or podman, where the operator allows it)",
};

/** Why a catalog function is not built in and how to run it, or undefined. */
export function notBuiltinReason(image: string): string | undefined {
  return NOT_BUILTIN[functionNameOf(image)];
}

/** A lookup of builtins by catalog name. */
export class BuiltinRegistry {
  private readonly byName = new Map<string, BuiltinFunction>();

  constructor(functions: readonly BuiltinFunction[] = BUILTIN_FUNCTIONS) {
    for (const fn of functions) this.byName.set(fn.name, fn);
  }

  /** The builtin for an image reference, or undefined. */
  resolve(image: string): BuiltinFunction | undefined {
    return this.byName.get(functionNameOf(image));
  }

  /** Catalog names of all builtins, sorted. */
  names(): string[] {
    return [...this.byName.keys()].sort();
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The builtin runtime (kpt's idea of a function runtime, in process). `run` resolves `undefined` for
 * `exec:` steps and images it has no builtin for. It never throws: a builtin that throws yields exit
 * code 1, the error in `stderr` and an error result naming the function.
 */
export function createBuiltinRuntime(
  options: { functions?: readonly BuiltinFunction[] } = {},
): FunctionRuntime & { registry: BuiltinRegistry } {
  const registry = new BuiltinRegistry(options.functions);
  return {
    name: "builtin",
    registry,
    async run(request): Promise<FunctionRunOutcome | undefined> {
      const image = request.fn.image;
      if (!image || request.fn.exec) return undefined;
      const fn = registry.resolve(image);
      if (!fn) return undefined;
      // The list belongs to this run (the engine passes clones): builtins edit it in place, no second copy.
      const list: ResourceList = { ...request.input, results: [...request.input.results] };
      try {
        const out = await fn.run(list);
        const results: FunctionResult[] = out.results;
        const failed = results.some((r) => r.severity === "error");
        const exitCode = out.exitCode ?? (failed ? 1 : 0);
        const stderr = out.stderr ?? (exitCode !== 0 ? SDK_FAILURE_STDERR : "");
        return {
          exitCode,
          stderr,
          output: { items: out.items, functionConfig: list.functionConfig, results },
        };
      } catch (err) {
        const message = `function ${JSON.stringify(fn.name)} failed: ${errorMessage(err)}`;
        return {
          exitCode: 1,
          stderr: message,
          output: { items: request.input.items, results: [{ message, severity: "error" }] },
        };
      }
    },
  };
}
