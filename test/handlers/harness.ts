import path from "node:path";
/**
 * Drives the real app (src/index.ts with the real engine and builtin runtime) through Probot, against
 * the nock GitHub mock.
 */
import { Probot, ProbotOctokit } from "probot";
import { parse } from "yaml";
import type { OperatorSettings } from "../../src/config/operator-settings.js";
import { createApp } from "../../src/index.js";
import { EmbeddedQueue, type EmbeddedQueueOptions } from "../../src/server/embedded-queue.js";

// exec functions start in an empty directory of their own: their scripts are named by absolute path.
const FIXTURES = path.resolve("test/handlers/fixtures");

/** `exec:` command of the results-reporting test function (`node <script> <severity> <n>`). */
export const REPORT_FN = `node ${FIXTURES}/report-results.mjs`;

/** A test Probot: `receive` resolves once the work the event asked for is done (the queue is idle). */
export type TestProbot = Probot & { queue: EmbeddedQueue; failures: unknown[] };

/**
 * A Probot instance with the app loaded; exec allowed so the test function can run, containers off; no
 * reconciliation; retries of GitHub outages at once (`queue` overrides the queue's options).
 */
export async function createTestProbot(
  settings: Partial<OperatorSettings> = {},
  queueOptions: EmbeddedQueueOptions = {},
): Promise<TestProbot> {
  const probot = new Probot({
    githubToken: "test-token",
    logLevel: "fatal",
    // Function form: Probot 14 passes its own throttle options to every installation client, which would
    // override an object default (and space writes 1 s apart); this runs last and switches both off.
    Octokit: ProbotOctokit.defaults((options: Record<string, unknown>) => ({
      ...options,
      retry: { enabled: false },
      throttle: { ...(options.throttle as object), enabled: false },
    })),
  });
  const failures: unknown[] = [];
  const queue = new EmbeddedQueue({
    retry: { retryDelayMs: () => 0, maxAttempts: 3 },
    onFailed: (_job, error) => failures.push(error),
    ...queueOptions,
  });
  await probot.load(
    createApp(
      { allowExec: true, allowContainers: false, pushOnFailure: "Unrendered", ...settings },
      { queue, reconcile: false },
    ),
  );
  const receive = probot.receive.bind(probot);
  return Object.assign(probot, {
    queue,
    failures,
    receive: async (event: Parameters<Probot["receive"]>[0]) => {
      await receive(event);
      await queue.idle();
    },
  });
}

/** A Kptfile with the given pipeline (YAML lines, indented under `pipeline:`). */
export function kptfile(name: string, pipeline: string[] = []): string {
  return [
    "apiVersion: kpt.dev/v1",
    "kind: Kptfile",
    "metadata:",
    `  name: ${name}`,
    ...(pipeline.length ? ["pipeline:", ...pipeline.map((l) => `  ${l}`)] : []),
    "",
  ].join("\n");
}

export const SET_NAMESPACE = [
  "mutators:",
  "  - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.1",
  "    configMap:",
  "      namespace: prod",
];

export function deployment(name: string): string {
  return [
    "apiVersion: apps/v1",
    "kind: Deployment",
    "metadata:",
    `  name: ${name} # the app`,
    "spec:",
    "  replicas: 1",
    "",
  ].join("\n");
}

/** `status.conditions[0]` of a Kptfile text. */
export function renderedCondition(
  kptfileText: string | null | undefined,
): Record<string, unknown> | undefined {
  const doc = parse(kptfileText ?? "") as { status?: { conditions?: Record<string, unknown>[] } } | null;
  return doc?.status?.conditions?.[0];
}

/** `output.summary` of a recorded check-run body (`""` when absent). */
export function summaryOf(body: Record<string, unknown> | undefined): string {
  return (body?.output as { summary?: string } | undefined)?.summary ?? "";
}
