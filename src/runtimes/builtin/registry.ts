/**
 * The builtin runtime: in-process TypeScript versions of catalog functions, matched by the function's
 * name whatever registry prefix, tag or digest the Kptfile uses
 * (`ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2`, `gcr.io/kpt-fn/set-labels:unstable`,
 * `set-labels`, `set-labels@sha256:…`).
 */
import type { NodeRunOutcome } from "../../engine/function-runtime.js";
import { documentList, nodeList } from "../../engine/node-adapter.js";
import type { FunctionResult, NodeResourceList, ResourceList } from "../../krm/resource-list.js";
import type { FunctionRunOutcome, FunctionRuntime } from "../runtime.js";
import type { BuiltinFunction, BuiltinFunctionOutput, NodeFunctionOutput } from "./builtin-function.js";
import type { StarlarkSettings } from "./starlark/settings.js";

/** What the Go SDK's `fn.AsMain` prints to stderr when a function reports failure. */
export const SDK_FAILURE_STDERR = "failed to evaluate function: error: function failure";

/**
 * Every builtin, in catalog-name order: one line per builtin, its module loaded only when a step uses
 * it (the CLI's start-up pays for no builtin it does not run). Never import a builtin module
 * statically here.
 */
export const BUILTIN_LOADERS: Readonly<Record<string, () => Promise<BuiltinFunction>>> = {
  "apply-replacements": async () => (await import("./apply-replacements.js")).applyReplacements,
  "apply-setters": async () => (await import("./apply-setters.js")).applySetters,
  "create-setters": async () => (await import("./create-setters.js")).createSetters,
  "drop-comments": async () => (await import("./drop-comments.js")).dropComments,
  "enable-gcp-services": async () => (await import("./enable-gcp-services.js")).enableGcpServices,
  "ensure-name-substring": async () => (await import("./ensure-name-substring.js")).ensureNameSubstring,
  "export-terraform": async () => (await import("./export-terraform/index.js")).exportTerraform,
  fix: async () => (await import("./fix.js")).fix,
  gatekeeper: async () => (await import("./gatekeeper/index.js")).gatekeeper,
  "generate-folders": async () => (await import("./generate-folders.js")).generateFolders,
  kubeconform: async () => (await import("./schema-validators.js")).kubeconform,
  kubeval: async () => (await import("./schema-validators.js")).kubeval,
  "list-setters": async () => (await import("./list-setters.js")).listSetters,
  "no-op": async () => (await import("./no-op.js")).noOp,
  "remove-local-config-resources": async () =>
    (await import("./remove-local-config-resources.js")).removeLocalConfigResources,
  "search-replace": async () => (await import("./search-replace.js")).searchReplace,
  "set-annotations": async () => (await import("./set-annotations.js")).setAnnotations,
  "set-enforcement-action": async () => (await import("./set-enforcement-action.js")).setEnforcementAction,
  "set-image": async () => (await import("./set-image.js")).setImage,
  "set-labels": async () => (await import("./set-labels.js")).setLabels,
  "set-namespace": async () => (await import("./set-namespace.js")).setNamespace,
  "set-project-id": async () => (await import("./set-project-id.js")).setProjectId,
  starlark: async () => (await import("./starlark/index.js")).starlark,
  "upsert-resource": async () => (await import("./upsert-resource.js")).upsertResource,
};

/**
 * The builtins whose module gives a node form (`runNodes`, editing nodes in place as kyaml's filters
 * do), known before the module is loaded: the engine then takes no shape before the run.
 */
export const NODE_FORMS: ReadonlySet<string> = new Set(["apply-setters", "set-labels", "set-namespace"]);

/** A builtin known by name whose module is loaded on first use. */
export interface LazyBuiltin {
  readonly name: string;
  /** Whether the builtin has `runNodes` (see {@link NODE_FORMS}). */
  readonly nodeForm: boolean;
  load(): Promise<BuiltinFunction>;
}

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
const NOT_BUILTIN: Readonly<Record<string, string>> = {};

/** Why a catalog function is not built in and how to run it, or undefined. */
export function notBuiltinReason(image: string): string | undefined {
  return NOT_BUILTIN[functionNameOf(image)];
}

/**
 * A lookup of builtins by catalog name: the lazily loaded {@link BUILTIN_LOADERS} by default, or the
 * given functions (tests, embedders).
 */
export class BuiltinRegistry {
  private readonly byName = new Map<string, LazyBuiltin>();

  constructor(functions?: readonly BuiltinFunction[], loaders = BUILTIN_LOADERS) {
    if (functions) {
      for (const fn of functions)
        this.byName.set(fn.name, {
          name: fn.name,
          nodeForm: fn.runNodes !== undefined,
          load: async () => fn,
        });
      return;
    }
    for (const [name, loader] of Object.entries(loaders)) {
      let loaded: Promise<BuiltinFunction> | undefined;
      this.byName.set(name, { name, nodeForm: NODE_FORMS.has(name), load: () => (loaded ??= loader()) });
    }
  }

  /** The builtin for an image reference (its module not loaded yet), or undefined. */
  resolve(image: string): LazyBuiltin | undefined {
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
  options: { functions?: readonly BuiltinFunction[]; starlark?: Partial<StarlarkSettings> } = {},
): FunctionRuntime & { registry: BuiltinRegistry } {
  const settings = options.starlark;
  const registry = new BuiltinRegistry(
    options.functions,
    settings
      ? {
          ...BUILTIN_LOADERS,
          starlark: async () => (await import("./starlark/index.js")).createStarlarkFunction(settings),
        }
      : BUILTIN_LOADERS,
  );
  return {
    name: "builtin",
    registry,
    // Builtins edit their input in place; a function they do not run is none of theirs.
    keepsInput: (fn) => !fn.image || Boolean(fn.exec),
    editsNodesInPlace: (fn) =>
      !fn.exec && fn.image !== undefined && registry.resolve(fn.image)?.nodeForm === true,
    async run(request): Promise<FunctionRunOutcome | undefined> {
      const fn = await builtinFor(request.fn);
      if (!fn) return undefined;
      // The list belongs to this run (the engine passes clones): builtins edit it in place, no second copy.
      const list: ResourceList = { ...request.input, results: [...request.input.results] };
      try {
        const out = await fn.run(list);
        return {
          ...outcomeOf(out),
          output: { items: out.items, functionConfig: list.functionConfig, results: out.results },
        };
      } catch (err) {
        return thrown(fn, err, request.input.items);
      }
    },
    /**
     * `run` on node items: a builtin with `runNodes` is called with them as they are; one without gets
     * them converted to Documents once and its items converted back.
     */
    async runNodes(request): Promise<NodeRunOutcome | undefined> {
      const fn = await builtinFor(request.fn);
      if (!fn) return undefined;
      const list: NodeResourceList = { ...request.input, results: [...request.input.results] };
      try {
        if (fn.runNodes) {
          const out: NodeFunctionOutput = await fn.runNodes(list);
          return {
            ...outcomeOf(out),
            output: { items: out.items, functionConfig: list.functionConfig, results: out.results },
          };
        }
        const docs = documentList(list);
        const out = await fn.run(docs);
        const output = nodeList({
          items: out.items,
          functionConfig: docs.functionConfig,
          results: out.results,
        });
        return { ...outcomeOf(out), output };
      } catch (err) {
        return thrown(fn, err, request.input.items);
      }
    },
  };

  async function builtinFor(ref: { image?: string; exec?: string }): Promise<BuiltinFunction | undefined> {
    const image = ref.image;
    if (!image || ref.exec) return undefined;
    const lazy = registry.resolve(image);
    return lazy ? lazy.load() : undefined;
  }
}

/** A builtin's exit code and stderr (the Go SDK's: 1 and its failure line when a result is an error). */
function outcomeOf(out: Omit<BuiltinFunctionOutput, "items">): { exitCode: number; stderr: string } {
  const results: FunctionResult[] = out.results;
  const failed = results.some((r) => r.severity === "error");
  const exitCode = out.exitCode ?? (failed ? 1 : 0);
  return { exitCode, stderr: out.stderr ?? (exitCode !== 0 ? SDK_FAILURE_STDERR : "") };
}

/** A builtin that threw: exit code 1, the error in stderr and in a result naming the function. */
function thrown<T>(fn: BuiltinFunction, err: unknown, items: T[]) {
  const message = `function ${JSON.stringify(fn.name)} failed: ${errorMessage(err)}`;
  return {
    exitCode: 1,
    stderr: message,
    output: { items, results: [{ message, severity: "error" as const }] },
  };
}
