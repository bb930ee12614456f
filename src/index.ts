/**
 * The porchlight Probot app (Probot's convention: the app function is the default export; `npm start`
 * runs it with `probot run`). Wires dependencies and registers handlers; no logic here.
 *
 * Operator settings (environment, besides Probot's own APP_ID, PRIVATE_KEY, WEBHOOK_SECRET, PORT,
 * GHE_HOST, GHE_PROTOCOL):
 * - `PORCHLIGHT_ALLOW_EXEC=true` allows Kptfile `exec:` functions. Off by default: repository content
 *   must never decide what code the server runs.
 * - `PORCHLIGHT_ALLOW_CONTAINERS=true` allows docker/podman for images without a builtin (off by
 *   default for the same reason).
 * - `PORCHLIGHT_EXEC_TIMEOUT_MS` timeout of one exec function (ms), when exec is allowed.
 * - `PORCHLIGHT_PUSH_ON_FAILURE` = `None` | `Unrendered` (default) | `PartiallyRendered`: the default
 *   policy; a repository's `.github/porchlight.yml` `pushOnFailure` overrides it for that repository.
 */
import type { ApplicationFunction } from "probot";
import { renderPackage } from "./engine/render.js";
import { createCheckRunHandler, createCheckSuiteHandler } from "./handlers/check-run.js";
import { createMergeGroupHandler } from "./handlers/merge-group.js";
import { createPullRequestHandler } from "./handlers/pull-request.js";
import { createPushHandler } from "./handlers/push.js";
import { type OperatorSettings, readOperatorSettings } from "./lifecycle/operator-settings.js";
import { WorkQueue } from "./lifecycle/work-queue.js";
import { createDefaultRuntime } from "./runtimes/default.js";
import { startProduction } from "./server/production.js";
import { readServerSettings, type ServerSettings } from "./server/settings.js";

/**
 * Builds the app function from operator settings (tests pass their own; `probot run` uses the env).
 * With `server` settings the app runs as a service (render worker pool with budgets, /healthz, /metrics,
 * SIGTERM); without, it renders in process (tests).
 */
export function createApp(
  settings: OperatorSettings = readOperatorSettings(process.env),
  server?: ServerSettings,
): ApplicationFunction {
  return (app, options) => {
    const production = server
      ? startProduction({ app, addHandler: options?.addHandler, settings: server, permissions: settings })
      : undefined;
    const runtime = createDefaultRuntime({
      allowExec: settings.allowExec,
      useContainers: settings.allowContainers,
      ...(settings.execTimeoutMs !== undefined ? { execTimeoutMs: settings.execTimeoutMs } : {}),
    });
    // One queue per app instance: per-branch serialization and duplicate detection (in memory, per process).
    const queue = new WorkQueue();
    // The operator's PORCHLIGHT_PUSH_ON_FAILURE is the default; `.github/porchlight.yml` overrides it.
    const engine = { renderPackage: production?.renderPackage ?? renderPackage, runtime };
    const deps = { engine, queue, pushOnFailure: settings.pushOnFailure };
    // Draft pushes (render and commit) and default-branch pushes (check only).
    app.on("push", createPushHandler(deps));
    // Lifecycle (issue 4): propose / publish / reject, re-run, merge queue.
    app.on("pull_request", createPullRequestHandler(deps));
    app.on("check_run", createCheckRunHandler(deps));
    app.on("check_suite", createCheckSuiteHandler(deps));
    app.on("merge_group", createMergeGroupHandler(deps));
  };
}

const porchlight: ApplicationFunction = (app, options) =>
  createApp(readOperatorSettings(process.env), readServerSettings(process.env))(app, options);

export default porchlight;
