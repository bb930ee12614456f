/**
 * The runtime chain porchlight uses: builtin TypeScript functions first, then `exec:` functions (only
 * with the operator's permission), then docker/podman when a daemon answers.
 */
import { createBuiltinRuntime, notBuiltinReason } from "./builtin/registry.js";
import { readStarlarkSettings, type StarlarkSettings } from "./builtin/starlark/settings.js";
import { chainRuntimes } from "./chain.js";
import { createContainerRuntime } from "./container/container-runtime.js";
import { createExecRuntime } from "./exec/exec-runtime.js";
import type { FunctionRuntime } from "./runtime.js";

/** Options of `createDefaultRuntime`. */
export interface DefaultRuntimeOptions {
  /** kpt's `--allow-exec`: whether `exec:` functions may run. */
  allowExec: boolean;
  /** Timeout per exec function run, in milliseconds (default 60 000). */
  execTimeoutMs?: number;
  /** Working directory of `exec:` functions when a render gives none (default: the process's). */
  cwd?: string;
  /** Whether to try docker/podman for images without a builtin (default true). */
  useContainers?: boolean;
  /**
   * The `starlark` function's settings (on/off, `ctx.environment`, step budget); default: read from this
   * process's environment (`readStarlarkSettings(process.env)`).
   */
  starlark?: StarlarkSettings;
  /** Step budget of one starlark run (the app's `PORCHLIGHT_STARLARK_MAX_STEPS`); overrides `starlark.maxSteps`. */
  starlarkMaxSteps?: number;
}

/**
 * chain(builtin, exec, container). A function none of them runs fails with exit code 125 and a message
 * that names the image and lists the builtins. Never throws.
 */
export function createDefaultRuntime(options: DefaultRuntimeOptions): FunctionRuntime {
  const starlark = options.starlark ?? readStarlarkSettings(process.env);
  const builtin = createBuiltinRuntime({
    starlark: {
      ...starlark,
      ...(options.starlarkMaxSteps !== undefined ? { maxSteps: options.starlarkMaxSteps } : {}),
    },
  });
  const runtimes: FunctionRuntime[] = [
    builtin,
    createExecRuntime({ allow: options.allowExec, timeoutMs: options.execTimeoutMs, cwd: options.cwd }),
  ];
  if (options.useContainers !== false) runtimes.push(createContainerRuntime());
  return chainRuntimes(runtimes, {
    hint: (fn) =>
      fn.image !== undefined
        ? (notBuiltinReason(fn.image) ??
          `builtin functions: ${builtin.registry.names().join(", ")}; other images need docker or podman`)
        : undefined,
  });
}
