/**
 * The operator's function runner (Porch's function-runner gRPC service), from the environment:
 *
 * - `PORCHLIGHT_FUNCTION_RUNNER` — `host:port` of the runner; unset: no runner.
 * - `PORCHLIGHT_FUNCTION_RUNNER_IMAGES` — comma-separated image patterns (`*` = any characters) the
 *   runner may be asked to run; unset or empty: none (nothing goes to the runner).
 * - `PORCHLIGHT_FUNCTION_RUNNER_TIMEOUT_MS` — time limit of one call (default 60000).
 * - `PORCHLIGHT_FUNCTION_RUNNER_TLS` — `true`: TLS with the system's roots; `PORCHLIGHT_FUNCTION_RUNNER_CA`
 *   (a PEM file) implies TLS with that CA; `PORCHLIGHT_FUNCTION_RUNNER_CERT` / `_KEY` (PEM files) add a
 *   client certificate.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import type {
  FunctionRunnerSettings,
  FunctionRunnerTls,
} from "../runtimes/function-runner/function-runner-runtime.js";
import { parseImagePatterns } from "../runtimes/function-runner/image-patterns.js";

/** The variables of the function runner's settings. */
export const functionRunnerVariables = {
  PORCHLIGHT_FUNCTION_RUNNER: z
    .string()
    .regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, "must be host:port")
    .optional()
    .or(z.literal("")),
  PORCHLIGHT_FUNCTION_RUNNER_IMAGES: z.string().optional(),
  PORCHLIGHT_FUNCTION_RUNNER_TIMEOUT_MS: z
    .string()
    .regex(/^[1-9]\d*$/, "must be a positive whole number of milliseconds")
    .optional(),
  PORCHLIGHT_FUNCTION_RUNNER_TLS: z.enum(["true", "false", "1", "0", ""]).optional(),
  PORCHLIGHT_FUNCTION_RUNNER_CA: z.string().optional(),
  PORCHLIGHT_FUNCTION_RUNNER_CERT: z.string().optional(),
  PORCHLIGHT_FUNCTION_RUNNER_KEY: z.string().optional(),
};

const envSchema = z.object(functionRunnerVariables);
type Env = z.infer<typeof envSchema>;

function pemFile(variable: keyof Env, path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(
      `porchlight: invalid environment variable ${variable}: cannot read ${path}: ${(err as Error).message}`,
    );
  }
}

function tlsOf(e: Env): FunctionRunnerTls | undefined {
  const ca = pemFile("PORCHLIGHT_FUNCTION_RUNNER_CA", e.PORCHLIGHT_FUNCTION_RUNNER_CA);
  const cert = pemFile("PORCHLIGHT_FUNCTION_RUNNER_CERT", e.PORCHLIGHT_FUNCTION_RUNNER_CERT);
  const key = pemFile("PORCHLIGHT_FUNCTION_RUNNER_KEY", e.PORCHLIGHT_FUNCTION_RUNNER_KEY);
  if ((cert === undefined) !== (key === undefined)) {
    throw new Error(
      "porchlight: invalid environment variable PORCHLIGHT_FUNCTION_RUNNER_CERT: a client certificate needs PORCHLIGHT_FUNCTION_RUNNER_KEY too (and the other way round)",
    );
  }
  const on = e.PORCHLIGHT_FUNCTION_RUNNER_TLS === "true" || e.PORCHLIGHT_FUNCTION_RUNNER_TLS === "1";
  if (!on && ca === undefined && cert === undefined) return undefined;
  return { ...(ca ? { ca } : {}), ...(cert && key ? { cert, key } : {}) };
}

/**
 * The function runner's settings from the checked variables; undefined when `PORCHLIGHT_FUNCTION_RUNNER`
 * is unset. @throws Error naming the variable when a PEM file cannot be read.
 */
export function functionRunnerOf(e: Env): FunctionRunnerSettings | undefined {
  if (!e.PORCHLIGHT_FUNCTION_RUNNER) return undefined;
  const tls = tlsOf(e);
  return {
    address: e.PORCHLIGHT_FUNCTION_RUNNER,
    images: parseImagePatterns(e.PORCHLIGHT_FUNCTION_RUNNER_IMAGES),
    ...(e.PORCHLIGHT_FUNCTION_RUNNER_TIMEOUT_MS
      ? { timeoutMs: Number(e.PORCHLIGHT_FUNCTION_RUNNER_TIMEOUT_MS) }
      : {}),
    ...(tls ? { tls } : {}),
  };
}

/**
 * Reads the function runner's settings from `env` (the CLI's `--function-runner` flags; the app reads
 * them in `environment.ts`); undefined when `PORCHLIGHT_FUNCTION_RUNNER` is unset.
 * @throws Error naming the variable when a value is invalid or a PEM file cannot be read.
 */
export function readFunctionRunnerSettings(
  env: Record<string, string | undefined>,
): FunctionRunnerSettings | undefined {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`porchlight: invalid environment variable ${String(issue?.path[0])}: ${issue?.message}`);
  }
  return functionRunnerOf(parsed.data);
}
