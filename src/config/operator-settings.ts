/**
 * Settings the operator of the app gives through the environment (never the repository: repository
 * content must not decide what code the server runs or how it is judged). Read by `environment.ts`.
 */
import { z } from "zod";
import type { KptfileStatusMode, PushOnFailure } from "../engine/types.js";
import type { ExecConfinement } from "../runtimes/exec/confine.js";
import type { FunctionRunnerSettings } from "../runtimes/function-runner/function-runner-runtime.js";
import { type ConsentPolicy, readConsentPolicy } from "./upstream-consent.js";

/** The app's operator settings. */
export interface OperatorSettings {
  /**
   * Allow Kptfile `exec:` functions (`PORCHLIGHT_ALLOW_EXEC=true`). Off by default: with it on, anyone
   * who can push a draft branch runs programs on the server — kpt guards the same with `--allow-exec`.
   */
  allowExec: boolean;
  /**
   * The operator's limits on `exec:` functions: `PORCHLIGHT_EXEC_PROGRAMS` (argv[0] must be one of these
   * bare names or absolute paths) and `PORCHLIGHT_EXEC_USER` (`uid:gid`, functions run as that user).
   */
  execConfinement?: ExecConfinement;
  /**
   * Allow container images to run with docker/podman (`PORCHLIGHT_ALLOW_CONTAINERS=true`). Off by
   * default for the same reason: a Kptfile would otherwise choose which images the server pulls and runs.
   */
  allowContainers: boolean;
  /** Timeout of one exec function in ms (`PORCHLIGHT_EXEC_TIMEOUT_MS`); runtime default when unset. */
  execTimeoutMs?: number;
  /**
   * Porch's function runner for the images the operator lists (`PORCHLIGHT_FUNCTION_RUNNER`,
   * `PORCHLIGHT_FUNCTION_RUNNER_IMAGES`, ...; see `function-runner-settings.ts`); absent: none.
   */
  functionRunner?: FunctionRunnerSettings;
  /**
   * What is stored when rendering fails (`PORCHLIGHT_PUSH_ON_FAILURE`), default `Unrendered`. Only a
   * default: a repository's `.github/porchlight.yml` `pushOnFailure` overrides it (storing more or less of
   * a failed render decides nothing about what code runs).
   */
  pushOnFailure: PushOnFailure;
  /**
   * How the Kptfile `status` is written by default (`PORCHLIGHT_KPTFILE_STATUS`): `full` (default) or
   * `conditions` for older kpt; a repository's `kptfileStatus` overrides it.
   */
  kptfileStatus?: KptfileStatusMode;
  /** Largest file a render reads, bytes (`PORCHLIGHT_MAX_FILE_BYTES`, default 32 MiB). */
  maxFileBytes?: number;
  /** Largest package a render reads, subpackages included, bytes (`PORCHLIGHT_MAX_PACKAGE_BYTES`, default 128 MiB). */
  maxPackageBytes?: number;
  /**
   * How often reconciliation looks for work nothing asked for (`PORCHLIGHT_RECONCILE_INTERVAL_MS`,
   * default 300000 = 5 minutes; it also runs at start; `0` = only at start).
   */
  reconcileIntervalMs?: number;
  /** Jobs one process runs at once, with either queue (`PORCHLIGHT_CONCURRENCY`, default 4). */
  concurrency?: number;
  /**
   * How long a check run that needs follow-up requests stays leased to the process that started it
   * without a renewal (`PORCHLIGHT_CHECK_LEASE_MS`, default 30000 = 30 s; renewed every third of it while
   * held): a run left in progress by a dead process is adopted by another once it ends.
   */
  checkLeaseMs?: number;
  /** This GitHub App's id (Probot's `APP_ID`): only its check runs count as verdicts. */
  appId?: number;
  /**
   * Which cross-repository upstream reads the operator allows (`PORCHLIGHT_UPSTREAM_CONSENT`) and whether
   * public upstreams need consent (`PORCHLIGHT_PUBLIC_UPSTREAMS`); see `upstream-consent.ts`. Absent: none, open.
   */
  upstreamConsent?: ConsentPolicy;
}

/** The variables of {@link OperatorSettings} (`PORCHLIGHT_FUNCTION_RUNNER*`: `function-runner-settings.ts`). */
export const operatorVariables = {
  PORCHLIGHT_ALLOW_EXEC: z.enum(["true", "false", "1", "0", ""]).optional(),
  PORCHLIGHT_EXEC_PROGRAMS: z
    .string()
    .regex(
      /^[^,\s]+(,[^,\s]+)*$/,
      "must be a comma-separated list of programs (bare names or absolute paths)",
    )
    .refine((v) => v.split(",").every((p) => !p.includes("/") || p.startsWith("/")), {
      message: "a program with a / must be an absolute path",
    })
    .optional(),
  PORCHLIGHT_EXEC_USER: z
    .string()
    .regex(/^\d+:\d+$/, "must be uid:gid (numeric ids)")
    .optional(),
  PORCHLIGHT_ALLOW_CONTAINERS: z.enum(["true", "false", "1", "0", ""]).optional(),
  PORCHLIGHT_EXEC_TIMEOUT_MS: z.string().regex(/^\d+$/, "must be a whole number of milliseconds").optional(),
  PORCHLIGHT_PUSH_ON_FAILURE: z.enum(["None", "Unrendered", "PartiallyRendered"]).optional(),
  PORCHLIGHT_KPTFILE_STATUS: z.enum(["full", "conditions"]).optional(),
  PORCHLIGHT_MAX_FILE_BYTES: z.string().regex(/^\d+$/, "must be a whole number of bytes").optional(),
  PORCHLIGHT_MAX_PACKAGE_BYTES: z.string().regex(/^\d+$/, "must be a whole number of bytes").optional(),
  PORCHLIGHT_RECONCILE_INTERVAL_MS: z
    .string()
    .regex(/^\d+$/, "must be a whole number of milliseconds")
    .optional(),
  PORCHLIGHT_CONCURRENCY: z
    .string()
    .regex(/^[1-9]\d*$/, "must be a positive whole number")
    .optional(),
  PORCHLIGHT_CHECK_LEASE_MS: z
    .string()
    .regex(/^[1-9]\d*$/, "must be a positive whole number of milliseconds")
    .optional(),
  APP_ID: z.string().optional(),
  PORCHLIGHT_UPSTREAM_CONSENT: z.string().optional(),
  PORCHLIGHT_PUBLIC_UPSTREAMS: z.string().optional(),
};

/** `execConfinement` from `PORCHLIGHT_EXEC_PROGRAMS` and `PORCHLIGHT_EXEC_USER`. */
function execConfinementOf(list: string | undefined, user: string | undefined) {
  const programs = list ? list.split(",") : undefined;
  const [uid, gid] = (user ?? "").split(":").map(Number);
  const runAs = user ? { uid, gid } : undefined;
  if (!programs && !runAs) return {};
  return { execConfinement: { ...(programs ? { programs } : {}), ...(runAs ? { runAs } : {}) } };
}

const numberIf = (text: string | undefined) => (text ? Number(text) : undefined);

/** {@link OperatorSettings} from the checked variables and the function runner read beside them. */
export function operatorSettingsOf(
  e: z.infer<z.ZodObject<typeof operatorVariables>>,
  functionRunner: FunctionRunnerSettings | undefined,
): OperatorSettings {
  return {
    ...(functionRunner ? { functionRunner } : {}),
    allowExec: e.PORCHLIGHT_ALLOW_EXEC === "true" || e.PORCHLIGHT_ALLOW_EXEC === "1",
    ...execConfinementOf(e.PORCHLIGHT_EXEC_PROGRAMS, e.PORCHLIGHT_EXEC_USER),
    allowContainers: e.PORCHLIGHT_ALLOW_CONTAINERS === "true" || e.PORCHLIGHT_ALLOW_CONTAINERS === "1",
    pushOnFailure: e.PORCHLIGHT_PUSH_ON_FAILURE ?? "Unrendered",
    ...(e.PORCHLIGHT_EXEC_TIMEOUT_MS ? { execTimeoutMs: Number(e.PORCHLIGHT_EXEC_TIMEOUT_MS) } : {}),
    ...defined({
      kptfileStatus: e.PORCHLIGHT_KPTFILE_STATUS,
      maxFileBytes: numberIf(e.PORCHLIGHT_MAX_FILE_BYTES),
      maxPackageBytes: numberIf(e.PORCHLIGHT_MAX_PACKAGE_BYTES),
      reconcileIntervalMs: numberIf(e.PORCHLIGHT_RECONCILE_INTERVAL_MS),
      concurrency: numberIf(e.PORCHLIGHT_CONCURRENCY),
      checkLeaseMs: numberIf(e.PORCHLIGHT_CHECK_LEASE_MS),
      appId: e.APP_ID && /^\d+$/.test(e.APP_ID) ? Number(e.APP_ID) : undefined,
    }),
    ...(e.PORCHLIGHT_UPSTREAM_CONSENT || e.PORCHLIGHT_PUBLIC_UPSTREAMS
      ? { upstreamConsent: readConsentPolicy(e) }
      : {}),
  };
}

function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
