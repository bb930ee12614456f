/**
 * Settings of the app process (environment): its role, the shared queue, shutdown and render budgets.
 * `REDIS_URL` is a secret (it may hold a password): it is passed to the Redis client only, never logged
 * and never seen by render workers or functions. Read by `environment.ts`, with the other variables.
 */
import { z } from "zod";
import { DEFAULT_REQUEST_TIMEOUT_MS } from "../github/octokit/timeout.js";
import type { StarlarkSettings } from "../runtimes/builtin/starlark/settings.js";
import type { RenderBudget } from "./render-budget.js";

/** Default `PORCHLIGHT_SHUTDOWN_GRACE_MS` (ms). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 20_000;

/**
 * What a process does: `all` (default) receives webhooks and works; `worker` only works (takes jobs
 * from the shared queue; webhooks sent to it are acknowledged and ignored); `receiver` only turns
 * webhooks into jobs. `worker` and `receiver` need `REDIS_URL` (a shared queue).
 */
export type Role = "all" | "worker" | "receiver";

/** The process settings. */
export interface ServerSettings {
  /** `PORCHLIGHT_ROLE`. */
  role: Role;
  /** `REDIS_URL`: the BullMQ queue (and Probot's throttling) on Redis; absent = the embedded queue. */
  redisUrl?: string;
  /**
   * Lock of a running job on Redis, ms (`PORCHLIGHT_JOB_LOCK_MS`, default 30 000): a job whose process
   * died runs again in another process within twice this (BullMQ's stalled-job check).
   */
  jobLockMs: number;
  /** Time running jobs get to finish after SIGTERM (`PORCHLIGHT_SHUTDOWN_GRACE_MS`, default 20 000: with the
   * 5 s that stopping in-flight renders may take, inside Kubernetes' default 30 s grace period). */
  shutdownGraceMs: number;
  /**
   * Time limit of one GitHub request attempt, ms (`PORCHLIGHT_GITHUB_TIMEOUT_MS`, default 30 000; `0` =
   * none): an attempt over it is retried like a lost connection, logged and counted as status `0`.
   */
  githubTimeoutMs: number;
  /** Render budgets (see `render-budget.ts`). */
  render: RenderBudget;
  /** Environment of the render workers: an allowlist without secrets (see `function-env.ts`). */
  workerEnv: Readonly<Record<string, string>>;
  /** The `starlark` function's settings in the render workers (`PORCHLIGHT_ALLOW_STARLARK`, ...). */
  starlark: StarlarkSettings;
}

/** The variables of {@link ServerSettings} (unset or empty: the default). */
export const serverVariables = {
  PORCHLIGHT_ROLE: z.enum(["all", "worker", "receiver"]).optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  PORCHLIGHT_JOB_LOCK_MS: z
    .string()
    .regex(/^[1-9]\d{3,}$/, "must be a whole number of milliseconds (1000 or more)")
    .optional(),
  PORCHLIGHT_SHUTDOWN_GRACE_MS: z
    .string()
    .regex(/^\d+$/, "must be a whole number of milliseconds")
    .optional(),
  PORCHLIGHT_GITHUB_TIMEOUT_MS: z
    .string()
    .regex(/^\d+$/, "must be a whole number of milliseconds")
    .optional(),
};

type ServerVariables = z.infer<z.ZodObject<typeof serverVariables>>;

/**
 * {@link ServerSettings} from the checked variables and the parts read beside them.
 * @throws Error when a `worker` / `receiver` role has no `REDIS_URL`.
 */
export function serverSettingsOf(
  e: ServerVariables,
  parts: Pick<ServerSettings, "render" | "workerEnv" | "starlark">,
): ServerSettings {
  const role = e.PORCHLIGHT_ROLE ?? "all";
  if (role !== "all" && !e.REDIS_URL)
    throw new Error(
      `porchlight: PORCHLIGHT_ROLE=${role} needs REDIS_URL (a queue shared with other processes)`,
    );
  return {
    role,
    ...(e.REDIS_URL ? { redisUrl: e.REDIS_URL } : {}),
    jobLockMs: e.PORCHLIGHT_JOB_LOCK_MS ? Number(e.PORCHLIGHT_JOB_LOCK_MS) : 30_000,
    shutdownGraceMs: e.PORCHLIGHT_SHUTDOWN_GRACE_MS
      ? Number(e.PORCHLIGHT_SHUTDOWN_GRACE_MS)
      : DEFAULT_SHUTDOWN_GRACE_MS,
    githubTimeoutMs: e.PORCHLIGHT_GITHUB_TIMEOUT_MS
      ? Number(e.PORCHLIGHT_GITHUB_TIMEOUT_MS)
      : DEFAULT_REQUEST_TIMEOUT_MS,
    ...parts,
  };
}
