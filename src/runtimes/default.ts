/**
 * The runtime chain porchlight uses: builtin TypeScript functions first, then `exec:` functions (only
 * with the operator's permission), then Porch's function runner for the images the operator lists,
 * then docker/podman when a daemon answers.
 */
import { createBuiltinRuntime, notBuiltinReason } from "./builtin/registry.js";
import { readStarlarkSettings, type StarlarkSettings } from "./builtin/starlark/settings.js";
import { chainRuntimes } from "./chain.js";
import { createContainerRuntime } from "./container/container-runtime.js";
import type { ExecConfinement } from "./exec/confine.js";
import { createExecRuntime } from "./exec/exec-runtime.js";
import {
  createFunctionRunnerRuntime,
  type FunctionRunnerSettings,
} from "./function-runner/function-runner-runtime.js";
import type { FunctionRuntime } from "./runtime.js";

/** Options of `createDefaultRuntime`. */
export interface DefaultRuntimeOptions {
  /** kpt's `--allow-exec`: whether `exec:` functions may run. */
  allowExec: boolean;
  /**
   * The app's rule for `exec:` paths (`exec/confine.ts`): relative paths name package files and are
   * refused; default false (the CLI's, kpt's: relative to the working directory).
   */
  confineExec?: boolean;
  /** The operator's limits on confined `exec:` functions (allowed programs, the user they run as). */
  execConfinement?: ExecConfinement;
  /** Timeout per exec function run, in milliseconds (default 60 000). */
  execTimeoutMs?: number;
  /** Working directory of `exec:` functions when a render gives none (default: the process's). */
  cwd?: string;
  /** Whether to try docker/podman for images without a builtin (default true). */
  useContainers?: boolean;
  /** Porch's function runner, for the images its allow-list matches (tried before containers). */
  functionRunner?: FunctionRunnerSettings;
  /**
   * The `starlark` function's settings (on/off, `ctx.environment`, step budget); default: the defaults
   * (`readStarlarkSettings({})`: on, no `ctx.environment`). The app and the CLI read them from the environment.
   */
  starlark?: StarlarkSettings;
  /** Step budget of one starlark run (the app's `PORCHLIGHT_STARLARK_MAX_STEPS`); overrides `starlark.maxSteps`. */
  starlarkMaxSteps?: number;
}

/**
 * chain(builtin, exec, function runner, container). A function none of them runs fails with exit code 125 and a message
 * that names the image and lists the builtins. Never throws. `close()` ends the function runner's
 * connection, if one was opened.
 */
export function createDefaultRuntime(options: DefaultRuntimeOptions): FunctionRuntime & { close(): void } {
  const starlark = options.starlark ?? readStarlarkSettings({});
  const builtin = createBuiltinRuntime({
    starlark: {
      ...starlark,
      ...(options.starlarkMaxSteps !== undefined ? { maxSteps: options.starlarkMaxSteps } : {}),
    },
  });
  const runtimes: FunctionRuntime[] = [
    builtin,
    createExecRuntime({
      allow: options.allowExec,
      confine: options.confineExec,
      ...(options.execConfinement ? { confinement: options.execConfinement } : {}),
      timeoutMs: options.execTimeoutMs,
      cwd: options.cwd,
    }),
  ];
  const runner = options.functionRunner;
  const remote = runner ? createFunctionRunnerRuntime(runner) : undefined;
  if (remote) runtimes.push(remote);
  if (options.useContainers !== false) runtimes.push(createContainerRuntime());
  const others = runner
    ? `other images need the function runner's allow-list (${runner.images.length > 0 ? runner.images.join(", ") : "empty"}) to name them, or docker or podman`
    : "other images need a function runner or docker or podman";
  const chain = chainRuntimes(runtimes, {
    hint: (fn) =>
      fn.image !== undefined
        ? (notBuiltinReason(fn.image) ??
          `builtin functions: ${builtin.registry.names().join(", ")}; ${others}`)
        : undefined,
  });
  // The function runner's connection is the only thing a runtime holds open.
  return { ...chain, close: () => remote?.close() };
}
