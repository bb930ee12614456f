/**
 * Runs the app's `upstream` jobs over a {@link MemoryInstallation}: a queue that records what jobs
 * enqueue, and `drain()` that runs the recorded upstream jobs (and what they enqueue) to the end, as
 * the work queue would. Also clones packages the way `porchlight pkg get` does, through the port.
 */
import { CONFIG_PATH, configFromText } from "../../../src/config/load.js";
import type { ConsentPolicy } from "../../../src/config/upstream-consent.js";
import { renderPackage } from "../../../src/engine/render.js";
import { runUpstreamJob } from "../../../src/jobs/run-upstream-job.js";
import type { LifecycleDeps, UpstreamServices } from "../../../src/lifecycle/deps.js";
import { MemoryDownstreamIndex } from "../../../src/lifecycle/downstream-index.js";
import { DEFAULT_SIZE_LIMITS } from "../../../src/lifecycle/render-at-sha.js";
import { type UpstreamJob, upstreamJobKey } from "../../../src/lifecycle/upstream-job.js";
import { GitHubUpstreamFetcher } from "../../../src/lifecycle/upstream-port.js";
import type { Job, WorkQueue } from "../../../src/lifecycle/work-queue.js";
import { getPackage } from "../../../src/pkg/get.js";
import { createDefaultRuntime } from "../../../src/runtimes/default.js";
import { mayNotBeIdempotent } from "../../../src/runtimes/idempotence.js";
import { MemoryInstallation } from "./memory-installation.js";

const EVERY_REPOSITORY: ConsentPolicy = {
  rules: [{ upstream: "*", consumer: "*" }],
  publicUpstreams: "open",
};

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A queue that only records (the test runs the jobs with `drain`). */
export class RecordingQueue implements WorkQueue {
  readonly jobs: Job[] = [];
  readonly memo = new Set<string>();
  async enqueue(job: Job): Promise<void> {
    this.jobs.push(job);
  }
  async start(): Promise<void> {}
  async idle(): Promise<void> {}
  async close(): Promise<void> {}
  async remember(key: string): Promise<void> {
    this.memo.add(key);
  }
  async remembers(key: string): Promise<boolean> {
    return this.memo.has(key);
  }
  async depth() {
    return { waiting: this.jobs.length, running: 0 };
  }
}

/**
 * An installation on `github.com` with the upstream services of the app. `consent`: the operator's
 * consent policy; default every repository of the installation may read every other (`*=*`).
 */
export function upstreamHarness(options: { consent?: ConsentPolicy } = {}) {
  const inst = new MemoryInstallation();
  const queue = new RecordingQueue();
  const services: UpstreamServices = {
    index: new MemoryDownstreamIndex(),
    host: "github.com",
    webBase: "https://github.com",
    consent: options.consent ?? EVERY_REPOSITORY,
    queue,
    log: quiet,
  };
  const runtime = createDefaultRuntime({ allowExec: false, useContainers: false });

  /** Runs one upstream job as the job runner does (snapshot + configuration, then the use-case). */
  async function run(job: UpstreamJob): Promise<string> {
    const snapshot = await inst.port.readSnapshot({ repo: job.repo, configPath: CONFIG_PATH });
    const loaded = configFromText(snapshot.config?.text);
    if (!loaded.ok) throw new Error(loaded.message);
    const lifecycle: LifecycleDeps = {
      port: inst.port,
      engine: { render: (request) => renderPackage({ ...request, runtime }), mayNotBeIdempotent },
      log: quiet,
      config: loaded.config,
      lease: { holder: "test", leaseMs: 60_000 },
      limits: DEFAULT_SIZE_LIMITS,
      queue,
      installationId: 1,
    };
    return runUpstreamJob(job, { lifecycle, snapshot, services });
  }

  /** Jobs of other kinds the upstream jobs enqueued (not run here), oldest first. */
  const others: Job[] = [];

  /** Runs the given jobs and every upstream job they enqueue; returns `key: outcome` lines. */
  async function drain(...jobs: UpstreamJob[]): Promise<string[]> {
    queue.jobs.push(...jobs);
    const lines: string[] = [];
    for (let n = 0; queue.jobs.length > 0; n++) {
      if (n > 200) throw new Error("upstream jobs do not settle");
      const job = queue.jobs.shift()!;
      if (job.kind !== "upstream") {
        others.push(job);
        continue;
      }
      lines.push(`${upstreamJobKey(job)}: ${await run(job)}`);
    }
    return lines;
  }

  /** An `upstream` job of repository `fullName`. */
  function job(fullName: string, task: UpstreamJob["task"]): UpstreamJob {
    const [owner, repo] = fullName.split("/");
    return { kind: "upstream", installationId: 1, repo: { owner, repo }, task };
  }

  /** `porchlight pkg get <url>/<dir>@<ref>`: the files of the clone, keyed by `prefix/<file>`. */
  async function clone(options: {
    url: string;
    dir: string;
    ref: string;
    name: string;
    prefix: string;
  }): Promise<Record<string, string>> {
    const files = await getPackage({
      upstream: { repo: options.url, directory: `/${options.dir}`, ref: options.ref },
      name: options.name,
      fetcher: new GitHubUpstreamFetcher({ port: inst.port, host: "github.com" }),
    });
    return Object.fromEntries(
      [...files].map(([file, content]) => [`${options.prefix}/${file}`, content.toString("utf8")]),
    );
  }

  return { inst, queue, services, run, drain, job, clone, others };
}
