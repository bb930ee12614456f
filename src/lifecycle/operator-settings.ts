/**
 * Settings the operator of the app gives through the environment (never the repository: repository
 * content must not decide what code the server runs or how it is judged).
 */
import { z } from "zod";
import type { PushOnFailure } from "../engine/types.js";

/** The app's operator settings. */
export interface OperatorSettings {
  /**
   * Allow Kptfile `exec:` functions (`PORCHLIGHT_ALLOW_EXEC=true`). Off by default: with it on, anyone
   * who can push a draft branch runs programs on the server — kpt guards the same with `--allow-exec`.
   */
  allowExec: boolean;
  /**
   * Allow container images to run with docker/podman (`PORCHLIGHT_ALLOW_CONTAINERS=true`). Off by
   * default for the same reason: a Kptfile would otherwise choose which images the server pulls and runs.
   */
  allowContainers: boolean;
  /** Timeout of one exec function in ms (`PORCHLIGHT_EXEC_TIMEOUT_MS`); runtime default when unset. */
  execTimeoutMs?: number;
  /**
   * What is stored when rendering fails (`PORCHLIGHT_PUSH_ON_FAILURE`), default `Unrendered`. Only a
   * default: a repository's `.github/porchlight.yml` `pushOnFailure` overrides it (storing more or less of
   * a failed render decides nothing about what code runs).
   */
  pushOnFailure: PushOnFailure;
}

const envSchema = z.object({
  PORCHLIGHT_ALLOW_EXEC: z.enum(["true", "false", "1", "0", ""]).optional(),
  PORCHLIGHT_ALLOW_CONTAINERS: z.enum(["true", "false", "1", "0", ""]).optional(),
  PORCHLIGHT_EXEC_TIMEOUT_MS: z.string().regex(/^\d+$/, "must be a whole number of milliseconds").optional(),
  PORCHLIGHT_PUSH_ON_FAILURE: z.enum(["None", "Unrendered", "PartiallyRendered"]).optional(),
});

/**
 * Reads {@link OperatorSettings} from `env`. Throws an Error naming the variable when a value is invalid
 * (the app then refuses to start, rather than running with a setting the operator did not mean).
 */
export function readOperatorSettings(env: Record<string, string | undefined>): OperatorSettings {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`porchlight: invalid environment variable ${String(issue?.path[0])}: ${issue?.message}`);
  }
  const e = parsed.data;
  return {
    allowExec: e.PORCHLIGHT_ALLOW_EXEC === "true" || e.PORCHLIGHT_ALLOW_EXEC === "1",
    allowContainers: e.PORCHLIGHT_ALLOW_CONTAINERS === "true" || e.PORCHLIGHT_ALLOW_CONTAINERS === "1",
    pushOnFailure: e.PORCHLIGHT_PUSH_ON_FAILURE ?? "Unrendered",
    ...(e.PORCHLIGHT_EXEC_TIMEOUT_MS ? { execTimeoutMs: Number(e.PORCHLIGHT_EXEC_TIMEOUT_MS) } : {}),
  };
}
