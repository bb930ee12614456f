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
import type { DownstreamIndex } from "../downstream-index.js";
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

/** Posts the blast radius of pull request `number` of `repo`; returns a line for the log. */
export async function reportBlastRadius(
  input: { repo: RepoRef; number: number; installationId: number },
  deps: UpstreamDeps & { index: DownstreamIndex; consent: ConsentPolicy },
): Promise<string> {
  const { repo } = input;
  const { port } = deps;
  const upstreamKey = repoKey(`${repo.owner}/${repo.repo}`);
  const downstreams = (await deps.index.all(input.installationId)).filter(
    (d) => d.upstream.repo === upstreamKey,
  );
  if (downstreams.length === 0) return "no downstreams";
  const snapshot = await port.readSnapshot({ repo, configPath: CONFIG_PATH, pullRequest: input.number });
  const pull = snapshot.pullRequest;
  if (pull?.state !== "open") return "not open";
  const existing = await port.listCheckRuns({ repo, sha: pull.headSha, name: BLAST_RADIUS_CHECK_NAME });
  if (existing.length > 0) return "reported";
  const changed = await port.listPullRequestFiles({ repo, number: input.number });
  const affected = [...new Set(downstreams.map((d) => d.upstream.package))].filter((pkg) =>
    changed.some((f) => pkg === "" || f.startsWith(`${pkg}/`)),
  );
  if (affected.length === 0) return "no downstream package changed";

  const rows: BlastRadiusRow[] = [];
  for (const pkg of affected.sort()) {
    const proposed = await readPackageFiles({ port, repo, sha: pull.headSha, dir: pkg });
    const fetcher = new ProposedFetcher(new GitHubUpstreamFetcher({ port, host: deps.host }), {
      files: proposed.files,
      ref: PROPOSED,
      commit: pull.headSha,
    });
    for (const d of downstreams.filter((x) => x.upstream.package === pkg)) {
      const [owner, name] = d.repo.split("/");
      const dRepo = { owner, repo: name };
      const row: BlastRadiusRow = {
        upstreamPackage: pkg,
        downstream: `${d.repo}/${d.package}`,
        revision: d.lock.revision,
        overrides: [],
      };
      try {
        const info = await port.readRepository({ repo: dRepo });
        const head = await port.readBranchHead({ repo: dRepo, branch: info.defaultBranch });
        const status = head
          ? await downstreamStatus({
              port,
              host: deps.host,
              repo: dRepo,
              pkg: d.package,
              sha: head,
              access: (upstream) =>
                upstreamAccess({ port, policy: deps.consent, downstream: dRepo, upstream }),
            })
          : undefined;
        if (!status) throw new Error("the downstream package is no longer on its default branch");
        const upgrade = await computeUpgrade({
          port,
          host: deps.host,
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
      rows.push(row);
    }
  }
  const output = blastRadiusOutput(rows);
  await port.createCheckRun({
    repo,
    name: BLAST_RADIUS_CHECK_NAME,
    headSha: pull.headSha,
    status: "completed",
    conclusion: rows.some((r) => r.error || upgradeNeedsReview(r)) ? "neutral" : "success",
    output,
    externalId: `blast-radius #${input.number}`,
  });
  return `${rows.length} downstream(s) of ${affected.join(", ")}`;
}
