/**
 * The porchlight Probot app (Probot's convention: the app function is the default export; `npm start`
 * runs it with `probot run`). Wires dependencies and registers handlers; no logic here.
 *
 * Webhooks are hints: each handler turns its payload into a job and answers at once; the work queue
 * (in process, or BullMQ on Redis with `REDIS_URL`) runs the jobs — level-triggered: a job reads
 * GitHub's current state when it starts. Reconciliation runs at start and periodically, so work no
 * webhook asked for is found again.
 *
 * Settings: read once from the environment by `src/config/environment.ts` (README, "Settings"); each part
 * is handed to the room that uses it here.
 */
import { randomUUID } from "node:crypto";
import type { ApplicationFunction, Probot } from "probot";
import { GITHUB_COM, type GitHubHost, readEnvironment } from "./config/environment.js";
import type { OperatorSettings } from "./config/operator-settings.js";
import type { ServerSettings } from "./config/server-settings.js";
import { renderPackage } from "./engine/render.js";
import type { Octokit } from "./github/octokit/client.js";
import { appClient, createOctokitPort, installationClients } from "./github/octokit/index.js";
import type { GitHubPort } from "./github/port.js";
import { createCheckRunHandler, createCheckSuiteHandler } from "./handlers/check-run.js";
import { createInstallationHandler, createInstallationRepositoriesHandler } from "./handlers/installation.js";
import { createMergeGroupHandler } from "./handlers/merge-group.js";
import { createPullRequestHandler } from "./handlers/pull-request.js";
import { createPushHandler } from "./handlers/push.js";
import { reconcile } from "./jobs/reconcile.js";
import { createJobHandler } from "./jobs/run-job.js";
import { reconcileAll, scheduleReconciliation } from "./jobs/schedule.js";
import { DEFAULT_SIZE_LIMITS } from "./lifecycle/render-at-sha.js";
import type { WorkQueue } from "./lifecycle/work-queue.js";
import { createDefaultRuntime } from "./runtimes/default.js";
import { mayNotBeIdempotent } from "./runtimes/idempotence.js";
import { createWorkQueue } from "./server/create-queue.js";
import { type Production, startProduction } from "./server/production.js";
import { createUpstreamServices } from "./server/upstream-services.js";

/** Default reconciliation interval (ms): 5 minutes. */
export const DEFAULT_RECONCILE_INTERVAL_MS = 300_000;
/**
 * Default check-run lease (ms): 30 s, renewed every 10 s while the process holds the run, so a run left
 * in progress by a dead process is adopted about 30 s after its last renewal.
 */
export const DEFAULT_CHECK_LEASE_MS = 30_000;

/** How the app is assembled beyond the operator's settings (tests and benchmarks). */
export interface AppOptions {
  /**
   * Process settings: with them the app runs as a service (render worker pool with budgets, /healthz,
   * /metrics, SIGTERM, the Redis queue when `REDIS_URL` is set); without, it renders in process (tests).
   */
  server?: ServerSettings;
  /** The GitHub host upstream URLs are compared with (default github.com). */
  github?: GitHubHost;
  /** The work queue; default: {@link createWorkQueue}. */
  queue?: WorkQueue;
  /** Reconcile at start and periodically (default true). */
  reconcile?: boolean;
}

/** One port per installation, built once (its clients renew their token themselves). */
function portsOf(
  app: Probot,
  instrument?: (octokit: Octokit) => Octokit,
): (installationId: number) => Promise<GitHubPort> {
  const ports = new Map<number, Promise<GitHubPort>>();
  return (installationId) => {
    let port = ports.get(installationId);
    if (!port) {
      port = installationClients(app, installationId, instrument).then(({ octokit, reads }) =>
        createOctokitPort(octokit, { reads }),
      );
      port.catch(() => ports.delete(installationId));
      ports.set(installationId, port);
    }
    return port;
  };
}

/** The bound function runtime: the operator's permissions, chosen here once (the use-cases never see it). */
function runtimeOf(settings: OperatorSettings, server: ServerSettings | undefined) {
  return createDefaultRuntime({
    allowExec: settings.allowExec,
    confineExec: true,
    ...(settings.execConfinement ? { execConfinement: settings.execConfinement } : {}),
    useContainers: settings.allowContainers,
    ...(settings.execTimeoutMs !== undefined ? { execTimeoutMs: settings.execTimeoutMs } : {}),
    ...(settings.functionRunner ? { functionRunner: settings.functionRunner } : {}),
    ...(server ? { starlark: server.starlark } : {}),
  });
}

/** What the job handler is built from in {@link startJobs}. */
interface JobWiring {
  app: Probot;
  settings: OperatorSettings;
  options: AppOptions;
  production: Production | undefined;
  queue: WorkQueue;
  portFor: (installationId: number) => Promise<GitHubPort>;
}

/** Builds the job handler (the dispatcher with its dependencies) and starts the queue with it. */
async function startJobs(wiring: JobWiring): Promise<void> {
  const { app, settings, options, production, queue, portFor } = wiring;
  const { server } = options;
  const runtime = runtimeOf(settings, server);
  const lease = {
    holder: randomUUID().slice(0, 8),
    leaseMs: settings.checkLeaseMs ?? DEFAULT_CHECK_LEASE_MS,
  };
  const appId = settings.appId;
  const handler = createJobHandler({
    portFor,
    // The engine with its function runtime bound here, once: the use-cases never see either.
    engine: {
      render: production?.render ?? ((request) => renderPackage({ ...request, runtime })),
      mayNotBeIdempotent,
    },
    queue,
    log: production?.log ?? app.log,
    pushOnFailure: settings.pushOnFailure,
    ...(settings.kptfileStatus ? { kptfileStatus: settings.kptfileStatus } : {}),
    limits: {
      maxFileBytes: settings.maxFileBytes ?? DEFAULT_SIZE_LIMITS.maxFileBytes,
      maxPackageBytes: settings.maxPackageBytes ?? DEFAULT_SIZE_LIMITS.maxPackageBytes,
    },
    lease,
    appId,
    reconcile: (job) => reconcile(job, { portFor, queue, log: app.log, lease, appId }),
    upstream: await createUpstreamServices({
      redisUrl: server?.redisUrl,
      github: options.github ?? GITHUB_COM,
      consent: settings.upstreamConsent,
      queue,
      log: app.log,
    }),
  });
  await queue.start(production ? production.wrapJobHandler(handler) : handler);
}

/** Registers the webhook handlers (payload → hint job) and the reconciliation schedule. */
function receiveWebhooks(wiring: Omit<JobWiring, "portFor"> & { appPort: () => Promise<GitHubPort> }): void {
  const { app, settings, options, production, queue, appPort } = wiring;
  const deps = { queue };
  app.on("push", createPushHandler(deps));
  app.on("pull_request", createPullRequestHandler(deps));
  app.on("check_run", createCheckRunHandler(deps));
  app.on("check_suite", createCheckSuiteHandler(deps));
  app.on("merge_group", createMergeGroupHandler(deps));
  app.on("installation", createInstallationHandler(deps));
  app.on("installation_repositories", createInstallationRepositoriesHandler(deps));
  if (options.reconcile !== false) {
    const stop = scheduleReconciliation({
      appPort,
      queue,
      log: app.log,
      intervalMs: settings.reconcileIntervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS,
    });
    production?.onClose(async () => stop());
  }
}

/** Builds the app function from operator settings (tests pass their own; `probot run` uses the env). */
export function createApp(
  settings: OperatorSettings = readEnvironment().operator,
  options: AppOptions = {},
): ApplicationFunction {
  return async (app, probotOptions) => {
    const { server } = options;
    const production = server
      ? startProduction({
          app,
          addHandler: probotOptions?.addHandler,
          settings: server,
          permissions: settings,
        })
      : undefined;
    const queue = options.queue ?? (await createWorkQueue({ settings, server, log: app.log }));
    production?.attachQueue(queue);
    const wiring = { app, settings, options, production, queue };
    const role = server?.role ?? "all";
    if (role !== "receiver")
      await startJobs({ ...wiring, portFor: portsOf(app, production?.instrumentOctokit) });
    const appPort = async () => createOctokitPort(await appClient(app, production?.instrumentOctokit));
    // A worker-only process acknowledges webhooks and ignores them (a receiver enqueues them); it too
    // re-derives the work at once when the queue's store comes back.
    if (role === "worker") {
      if (options.reconcile !== false)
        queue.onReconnect?.(() => void reconcileAll({ appPort, queue, log: app.log }));
      return;
    }
    receiveWebhooks({ ...wiring, appPort });
  };
}

const porchlight: ApplicationFunction = (app, options) => {
  const environment = readEnvironment();
  return createApp(environment.operator, { server: environment.server, github: environment.github })(
    app,
    options,
  );
};

export default porchlight;
