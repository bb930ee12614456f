/**
 * Settings of the app process (environment): its role, the shared queue, shutdown and render budgets.
 * `REDIS_URL` is a secret (it may hold a password): it is passed to the Redis client only, never logged
 * and never seen by render workers or functions.
 */
import { z } from "zod";
import { DEFAULT_REQUEST_TIMEOUT_MS } from "../github/octokit/timeout.js";
import { type RenderBudget, readRenderBudget } from "./render-budget.js";
import { DEFAULT_SHUTDOWN_GRACE_MS } from "./shutdown.js";

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
}

const envSchema = z.object({
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
});

/**
 * Reads {@link ServerSettings} from `env` (unset or empty: the default).
 * @throws Error naming the variable (never its value) when a value is invalid, or when a `worker` /
 * `receiver` role has no `REDIS_URL`.
 */
export function readServerSettings(env: Record<string, string | undefined>): ServerSettings {
  const set = Object.fromEntries(Object.keys(envSchema.shape).map((k) => [k, env[k] || undefined]));
  const parsed = envSchema.safeParse(set);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`porchlight: invalid environment variable ${String(issue?.path[0])}: ${issue?.message}`);
  }
  const e = parsed.data;
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
    render: readRenderBudget(env),
  };
}
