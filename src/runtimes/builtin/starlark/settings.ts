/**
 * The operator's settings of the `starlark` function (environment of the porchlight process; never the
 * repository):
 * - `PORCHLIGHT_ALLOW_STARLARK` (`true` by default; `false` or `0` turns the function off: every starlark
 *   step then fails saying so);
 * - `PORCHLIGHT_STARLARK_ENV`: comma-separated names of environment variables scripts may read as
 *   `ctx.environment` (default none: a script pushed to a repository never sees the server's environment);
 *   names that look like secrets (containing KEY, SECRET, TOKEN, PASSWORD, CREDENTIAL, AUTH, COOKIE,
 *   DSN, REDIS, PRIVATE) are never passed;
 * - `PORCHLIGHT_STARLARK_MAX_STEPS`: execution steps per run (go.starlark.net's `SetMaxExecutionSteps`),
 *   default 100 000 000.
 */

/** The starlark function's settings. */
export interface StarlarkSettings {
  /** Whether starlark steps run at all. */
  enabled: boolean;
  /** `ctx.environment`: variable name → value. */
  environment: Readonly<Record<string, string>>;
  /** Step budget of one run. */
  maxSteps: number;
  /** Memory budget of one run in bytes (not an operator setting; default the interpreter's, 512 MiB). */
  maxMemoryBytes?: number;
}

/** The default step budget (the same default as the app's render budget). */
export const DEFAULT_STARLARK_MAX_STEPS = 100_000_000;

const SECRET = /KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL|AUTH|COOKIE|DSN|REDIS|PRIVATE/i;

/**
 * Reads {@link StarlarkSettings} from `env` (unset or empty: the default).
 * @throws Error naming the variable when a value is invalid.
 */
export function readStarlarkSettings(env: Readonly<Record<string, string | undefined>>): StarlarkSettings {
  const allow = env.PORCHLIGHT_ALLOW_STARLARK || "true";
  if (!["true", "false", "1", "0"].includes(allow)) {
    throw new Error(
      "porchlight: invalid environment variable PORCHLIGHT_ALLOW_STARLARK: must be true or false",
    );
  }
  const steps = env.PORCHLIGHT_STARLARK_MAX_STEPS || String(DEFAULT_STARLARK_MAX_STEPS);
  if (!/^\d+$/.test(steps) || Number(steps) < 1) {
    throw new Error(
      "porchlight: invalid environment variable PORCHLIGHT_STARLARK_MAX_STEPS: must be a whole number of steps, at least 1",
    );
  }
  const environment: Record<string, string> = {};
  for (const name of (env.PORCHLIGHT_STARLARK_ENV ?? "").split(",").map((n) => n.trim())) {
    const value = name === "" || SECRET.test(name) ? undefined : env[name];
    if (value !== undefined) environment[name] = value;
  }
  return { enabled: allow === "true" || allow === "1", environment, maxSteps: Number(steps) };
}
