/** Check runs over the Checks API: create, update (annotations are appended by GitHub), list. */
import type { CheckRunFields, CheckRunOperations, CheckRunSummary, PullRequestRef } from "../port.js";
import type { Octokit } from "./client.js";
import { call } from "./errors.js";

function checkBody(fields: CheckRunFields) {
  return {
    ...(fields.status ? { status: fields.status } : {}),
    ...(fields.conclusion ? { conclusion: fields.conclusion } : {}),
    ...(fields.externalId ? { external_id: fields.externalId } : {}),
    ...(fields.actions?.length ? { actions: fields.actions } : {}),
    ...(fields.output ? { output: fields.output } : {}),
  };
}

interface PullLike {
  number: number;
  head: { ref: string; sha: string };
  base: { ref: string };
}

function pullRefs(pulls: readonly PullLike[] | null | undefined): PullRequestRef[] {
  return (pulls ?? []).map((p) => ({
    number: p.number,
    headRef: p.head.ref,
    headSha: p.head.sha,
    baseRef: p.base.ref,
  }));
}

/** The check-run methods of the port. */
export function checkOperations(octokit: Octokit): CheckRunOperations {
  return {
    async createCheckRun({ repo, name, headSha, ...fields }) {
      // Not retried by the client: a create GitHub made but did not answer (a timeout, a 5xx after the
      // fact) would make a second run and leave the first in progress for ever. The job's own retry
      // finds the first run (the check runs of the sha) and continues or keeps it.
      const { data } = await call("checks.create", () =>
        octokit.rest.checks.create({
          ...repo,
          name,
          head_sha: headSha,
          ...checkBody(fields),
          request: { retries: 0 },
        }),
      );
      return { id: data.id, pullRequests: pullRefs(data.pull_requests) };
    },

    async updateCheckRun({ repo, checkRunId, ...fields }) {
      await call("checks.update", () =>
        octokit.rest.checks.update({ ...repo, check_run_id: checkRunId, ...checkBody(fields) }),
      );
    },

    async listCheckRuns({ repo, sha, name }): Promise<CheckRunSummary[]> {
      const runs = await call("checks.listForRef", () =>
        octokit.paginate(octokit.rest.checks.listForRef, {
          ...repo,
          ref: sha,
          check_name: name,
          filter: "all",
          per_page: 100,
        }),
      );
      return runs.map((r) => ({
        id: r.id,
        name: r.name,
        headSha: r.head_sha,
        status: r.status,
        conclusion: r.conclusion ?? undefined,
        externalId: r.external_id ?? undefined,
        startedAt: r.started_at ?? undefined,
        appId: r.app?.id ?? undefined,
      }));
    },
  };
}
