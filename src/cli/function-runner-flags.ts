/**
 * The CLI's flags for Porch's function runner (`render` and `fn eval`): they mean what the app's
 * `PORCHLIGHT_FUNCTION_RUNNER*` variables mean (`src/config/function-runner-settings.ts`), with one
 * difference: on the command line, `--function-runner` alone sends every image that no builtin
 * claims (`--function-runner-images` defaults to `*`) — the user who names the runner chose it, as
 * kpt's user chooses docker; the app's allow-list has no default.
 */
import type { FunctionRunnerSettings } from "../runtimes/function-runner/function-runner-runtime.js";

/** The flags, each mapped to the app's variable of the same meaning. */
const FLAGS = {
  "function-runner": "PORCHLIGHT_FUNCTION_RUNNER",
  "function-runner-images": "PORCHLIGHT_FUNCTION_RUNNER_IMAGES",
  "function-runner-timeout": "PORCHLIGHT_FUNCTION_RUNNER_TIMEOUT_MS",
  "function-runner-tls": "PORCHLIGHT_FUNCTION_RUNNER_TLS",
  "function-runner-ca": "PORCHLIGHT_FUNCTION_RUNNER_CA",
  "function-runner-cert": "PORCHLIGHT_FUNCTION_RUNNER_CERT",
  "function-runner-key": "PORCHLIGHT_FUNCTION_RUNNER_KEY",
} as const;

/** A flag's name without `--`. */
export type FunctionRunnerFlag = keyof typeof FLAGS;

/** Values of the function-runner flags given, by name (`--function-runner-tls` alone is `"true"`). */
export type FunctionRunnerFlags = Partial<Record<FunctionRunnerFlag, string>>;

/** Whether `name` (without `--`) is one of the function-runner flags. */
export function isFunctionRunnerFlag(name: string): name is FunctionRunnerFlag {
  return Object.hasOwn(FLAGS, name);
}

/** The usage lines of the flags (render's and fn eval's help). */
export const FUNCTION_RUNNER_USAGE = `  --function-runner HOST:PORT       run images no builtin has with Porch's function runner (gRPC)
  --function-runner-images LIST     only these images (comma-separated, * = any characters; default *)
  --function-runner-timeout MS      time limit of one call (default 60000)
  --function-runner-tls             use TLS (the system's roots, or --function-runner-ca FILE);
                                    --function-runner-cert FILE and --function-runner-key FILE for mTLS
`;

/**
 * The runner's settings from the flags; undefined without `--function-runner`. PEM files are read here.
 * The settings' checks (zod) are loaded only when `--function-runner` is given: a render without it
 * does not compile them.
 * @throws Error naming the flag whose value is invalid, or a PEM file that cannot be read.
 */
export async function functionRunnerFromFlags(
  flags: FunctionRunnerFlags,
): Promise<FunctionRunnerSettings | undefined> {
  if (flags["function-runner"] === undefined) {
    const stray = Object.keys(flags)[0];
    if (stray) throw new Error(`--${stray} needs --function-runner HOST:PORT`);
    return undefined;
  }
  const env: Record<string, string> = { PORCHLIGHT_FUNCTION_RUNNER_IMAGES: "*" };
  for (const [flag, value] of Object.entries(flags)) env[FLAGS[flag as FunctionRunnerFlag]] = value;
  const { readFunctionRunnerSettings } = await import("../config/function-runner-settings.js");
  try {
    return readFunctionRunnerSettings(env);
  } catch (err) {
    let message = (err as Error).message.replace(/^porchlight: /, "");
    // Longest names first: PORCHLIGHT_FUNCTION_RUNNER is the start of the others.
    const byLength = Object.entries(FLAGS).sort((a, b) => b[1].length - a[1].length);
    for (const [flag, variable] of byLength) {
      message = message.replaceAll(`invalid environment variable ${variable}`, `invalid --${flag}`);
      message = message.replaceAll(variable, `--${flag}`);
    }
    throw new Error(message);
  }
}
