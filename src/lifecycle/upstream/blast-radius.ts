/**
 * Blast radius: while a change to an upstream package is proposed (an open pull request), the
 * `porchlight/downstreams` check on its head lists the downstream packages a publish would upgrade,
 * and for each a dry run of the upgrade: the local edits it would override, or why the merge would
 * fail. Nothing is written to the downstream repositories.
 */

import { CONFIG_PATH } from "../../config/load.js";
import type { ConsentPolicy } from "../../config/upstream-consent.js";
import type { RepoRef } from "../../github/port.js";
import type { FetchedPackage, UpstreamFetcher, UpstreamSpec } from "../../pkg/update.js";
import {
  BLAST_RADIUS_CHECK_NAME,
  type BlastRadiusRow,
  blastRadiusOutput,
} from "../../report/blast-radius.js";
import { upgradeNeedsReview } from "../../report/upgrade.js";
import type { DownstreamEntry, DownstreamIndex } from "../downstream-index.js";
import { ensureCheckRun } from "../ensure-check-run.js";
import { computeUpgrade, downstreamStatus, type UpstreamDeps } from "../upgrade-plan.js";
import { upstreamAccess } from "../upstream-consent.js";
import { GitHubUpstreamFetcher, readPackageFiles } from "../upstream-port.js";
import { repoKey } from "../upstream-source.js";

const PROPOSED = "porchlight-proposed";

/** Reads upstream revisions through the port, and the proposed change for the ref {@link PROPOSED}. */
class ProposedFetcher implements UpstreamFetcher {
  constructor(
    private readonly inner: GitHubUpstreamFetcher,
    private readonly proposed: FetchedPackage,
  ) {}
  fetch(spec: UpstreamSpec): Promise<FetchedPackage> {
    return spec.ref === PROPOSED ? Promise.resolve(this.proposed) : this.inner.fetch(spec);
  }
}

/** The downstreams of `repo`'s packages in the installation's index. */
async function downstreamsOf(
  input: { repo: RepoRef; installationId: number },
  index: DownstreamIndex,
): Promise<DownstreamEntry[]> {
  const upstreamKey = repoKey(`${input.repo.owner}/${input.repo.repo}`);
  return (await index.all(input.installationId)).filter((d) => d.upstream.repo === upstreamKey);
}

/** The upstream packages (of those with downstreams) that the pull request changes, sorted. */
async function changedPackages(
  input: { repo: RepoRef; number: number },
  port: UpstreamDeps["port"],
  downstreams: DownstreamEntry[],
): Promise<string[]> {
  const changed = await port.listPullRequestFiles({ repo: input.repo, number: input.number });
  return [...new Set(downstreams.map((d) => d.upstream.package))]
    .filter((pkg) => changed.some((f) => pkg === "" || f.startsWith(`${pkg}/`)))
    .sort();
}

/**
 * The dry run of one downstream's upgrade to the proposed change (`fetcher` serves it as {@link PROPOSED}):
 * the local edits it would override, or why it would fail. Writes nothing.
 */
async function dryRun(
  d: DownstreamEntry,
  pkg: string,
  fetcher: UpstreamFetcher,
  deps: BlastRadiusDeps,
): Promise<BlastRadiusRow> {
  const { port, host } = deps;
  const [owner, name] = d.repo.split("/");
  const repo = { owner, repo: name };
  const row: BlastRadiusRow = {
    upstreamPackage: pkg,
    downstream: `${d.repo}/${d.package}`,
    revision: d.lock.revision,
    overrides: [],
  };
  try {
    const info = await port.readRepository({ repo });
    const head = await port.readBranchHead({ repo, branch: info.defaultBranch });
    const access = (upstream: RepoRef) =>
      upstreamAccess({ port, policy: deps.consent, downstream: repo, upstream });
    const status = head
      ? await downstreamStatus({ port, host, repo, pkg: d.package, sha: head, access })
      : undefined;
    if (!status) throw new Error("the downstream package is no longer on its default branch");
    const upgrade = await computeUpgrade({
      port,
      host,
      pkg: d.package,
      status,
      to: 0,
      ref: PROPOSED,
      fetcher,
    });
    row.overrides = upgrade.overrides;
    row.outcomes = upgrade.state.outcomes ?? [];
  } catch (err) {
    row.error = err instanceof Error ? err.message : String(err);
  }
  return row;
}

/** The rows of the report: each affected package's downstreams, dry-run against the pull request's head. */
async function dryRuns(
  input: { repo: RepoRef; headSha: string; affected: string[]; downstreams: DownstreamEntry[] },
  deps: BlastRadiusDeps,
): Promise<BlastRadiusRow[]> {
  const { port } = deps;
  const rows: BlastRadiusRow[] = [];
  for (const pkg of input.affected) {
    const proposed = await readPackageFiles({ port, repo: input.repo, sha: input.headSha, dir: pkg });
    const fetcher = new ProposedFetcher(new GitHubUpstreamFetcher({ port, host: deps.host }), {
      files: proposed.files,
      ref: PROPOSED,
      commit: input.headSha,
    });
    for (const d of input.downstreams.filter((x) => x.upstream.package === pkg)) {
      rows.push(await dryRun(d, pkg, fetcher, deps));
    }
  }
  return rows;
}

type BlastRadiusDeps = UpstreamDeps & { index: DownstreamIndex; consent: ConsentPolicy };

/**
 * Posts the blast radius of pull request `number` of `repo` on its head, once (`porchlight/downstreams`,
 * external id `blast-radius #<number>`): neutral when an upgrade would fail or override local edits.
 * Returns a line for the log. Throws GitHub's errors (the job is retried).
 */
export async function reportBlastRadius(
  input: { repo: RepoRef; number: number; installationId: number },
  deps: BlastRadiusDeps,
): Promise<string> {
  const { repo } = input;
  const downstreams = await downstreamsOf(input, deps.index);
  if (downstreams.length === 0) return "no downstreams";
  const snapshot = await deps.port.readSnapshot({ repo, configPath: CONFIG_PATH, pullRequest: input.number });
  const pull = snapshot.pullRequest;
  if (pull?.state !== "open") return "not open";
  let line = "no downstream package changed";
  const posted = await ensureCheckRun(deps.port, {
    repo,
    name: BLAST_RADIUS_CHECK_NAME,
    sha: pull.headSha,
    externalId: `blast-radius #${input.number}`,
    outcome: async () => {
      const affected = await changedPackages(input, deps.port, downstreams);
      if (affected.length === 0) return undefined;
      const rows = await dryRuns({ repo, headSha: pull.headSha, affected, downstreams }, deps);
      line = `${rows.length} downstream(s) of ${affected.join(", ")}`;
      const conclusion = rows.some((r) => r.error || upgradeNeedsReview(r)) ? "neutral" : "success";
      return { conclusion, output: blastRadiusOutput(rows) };
    },
  });
  return posted === "exists" ? "reported" : line;
}
