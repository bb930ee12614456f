/**
 * The app's environment, read once: every variable the app reads is checked by one zod schema here, and
 * `src/index.ts` (the composition root) hands each room its part. Nothing else in the app reads
 * `process.env` (`npm run lint` holds it; the CLI, its own composition root, reads its documented
 * variables itself). Repository content never reaches these settings.
 *
 * The variables, their defaults and meaning: README ("Settings"), and the parts' docs —
 * `operator-settings.ts`, `function-runner-settings.ts`, `server-settings.ts`, `render-budget.ts`,
 * `function-env.ts`, `runtimes/builtin/starlark/settings.ts`; `GHE_HOST` / `GHE_PROTOCOL` are Probot's.
 */
import { z } from "zod";
import { readStarlarkSettings } from "../runtimes/builtin/starlark/settings.js";
import { functionEnv } from "./function-env.js";
import { functionRunnerOf, functionRunnerVariables } from "./function-runner-settings.js";
import { type OperatorSettings, operatorSettingsOf, operatorVariables } from "./operator-settings.js";
import { renderBudgetOf, renderBudgetVariables } from "./render-budget.js";
import { type ServerSettings, serverSettingsOf, serverVariables } from "./server-settings.js";

/** The GitHub host upstream URLs are compared with: Probot's `GHE_HOST` / `GHE_PROTOCOL`, else github.com. */
export interface GitHubHost {
  /** Host upstream repository URLs are read against, with its scheme when that is not https (`127.0.0.1:3000`, `http://ghe.local`). */
  host: string;
  /** Base of web links (`https://github.com`). */
  webBase: string;
}

/** Each room's part of the environment. */
export interface Environment {
  /** What the operator allows and defaults (functions, budgets of a package, reconcile, leases). */
  operator: OperatorSettings;
  /** The process: role, Redis, shutdown, render workers. */
  server: ServerSettings;
  /** The GitHub host. */
  github: GitHubHost;
}

/** Variables whose empty value means unset (the others keep the checks they always had). */
const emptyIsUnset = {
  ...serverVariables,
  ...renderBudgetVariables,
  PORCHLIGHT_ALLOW_STARLARK: z.enum(["true", "false", "1", "0"], "must be true or false").optional(),
};

/** Every variable the app reads (ordered as they are checked: the first bad one is reported). */
const environmentSchema = z.object({
  ...operatorVariables,
  ...functionRunnerVariables,
  ...emptyIsUnset,
  GHE_HOST: z.string().optional(),
  GHE_PROTOCOL: z.string().optional(),
});

/** The default GitHub host (github.com), for tests and in-process apps. */
export const GITHUB_COM: GitHubHost = { host: "github.com", webBase: "https://github.com" };

function githubHostOf(e: { GHE_HOST?: string | undefined; GHE_PROTOCOL?: string | undefined }): GitHubHost {
  const host = e.GHE_HOST?.trim() || "github.com";
  const protocol = e.GHE_HOST ? e.GHE_PROTOCOL?.trim() || "https" : "https";
  // Upstream URLs are read against the host with its scheme when that is not https (a local GitHub).
  return { host: protocol === "https" ? host : `${protocol}://${host}`, webBase: `${protocol}://${host}` };
}

/**
 * Reads and checks the environment (default: this process's), once.
 * @throws Error `porchlight: invalid environment variable NAME: what is wrong` (never the value) for the
 * first bad variable, or when a `worker` / `receiver` role has no `REDIS_URL`; the app then refuses to
 * start rather than run with a setting the operator did not mean.
 */
export function readEnvironment(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Environment {
  const input: Record<string, string | undefined> = { ...env };
  for (const name of Object.keys(emptyIsUnset)) input[name] = env[name] || undefined;
  const parsed = environmentSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`porchlight: invalid environment variable ${String(issue?.path[0])}: ${issue?.message}`);
  }
  const e = parsed.data;
  return {
    operator: operatorSettingsOf(e, functionRunnerOf(e)),
    server: serverSettingsOf(e, {
      render: renderBudgetOf(e),
      workerEnv: functionEnv(env),
      starlark: readStarlarkSettings(env),
    }),
    github: githubHostOf(e),
  };
}
