/**
 * The comments an upgrade leaves on its pull request when it does not update it: held (a person pushed to
 * the branch) and obsolete (the downstream no longer needs it; the pull request is closed, its branch kept).
 */
import type { RepoRef } from "../../github/port.js";
import {
  UPGRADE_HELD_MARKER,
  UPGRADE_OBSOLETE_MARKER,
  upgradeHeldComment,
  upgradeObsoleteComment,
} from "../../report/upgrade.js";
import { upsertComment } from "../comments.js";
import type { UpstreamDeps } from "../upgrade-plan.js";

type Port = UpstreamDeps["port"];

/** Says on pull request `number` why upstream's revision `to` of `upstream` was not written to it. */
export async function noteHeld(port: Port, repo: RepoRef, number: number, to: number, upstream: string) {
  await upsertComment({
    port,
    repo,
    issueNumber: number,
    marker: UPGRADE_HELD_MARKER,
    body: upgradeHeldComment({ to, pkg: upstream }),
  });
}

/** Notes once why the upgrade pull request `pull` is no longer needed, then closes it (the branch stays). */
export async function closeObsolete(
  port: Port,
  repo: RepoRef,
  o: { pkg: string; upstream: string; pull: number; current: number; latest: number },
) {
  await upsertComment({
    port,
    repo,
    issueNumber: o.pull,
    marker: UPGRADE_OBSOLETE_MARKER,
    body: upgradeObsoleteComment(o),
  });
  await port.updatePullRequest({ repo, number: o.pull, state: "closed" });
}
