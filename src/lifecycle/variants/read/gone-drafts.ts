/**
 * Reading the drafts of variants that are gone: the `variant-<name>` drafts whose variant no longer
 * exists, each with the deletion policy the app's last commit on it recorded (absent: a person pushed).
 */
import type { RepoRef } from "../../../github/port.js";
import { UPGRADE_CHECK_NAME } from "../../../report/upgrade.js";
import { appCommitOf } from "../../app-draft.js";
import { parseDraftBranch } from "../../revision-naming.js";
import type { UpstreamDeps } from "../../upgrade-plan.js";
import { VARIANT_WORKSPACE_PREFIX } from "../naming.js";
import type { OpenPull } from "./variant-draft.js";

/** A draft whose variant is gone. */
export interface GoneDraft {
  name: string;
  branch: string;
  packagePath: string;
  /** The external id of the app's commit the head stands for; `null` when a person pushed to the draft. */
  appExternalId: string | undefined | null;
  pull: number | undefined;
}

/** The drafts of variants not named in `names`, with what deciding their fate needs. */
export async function readGoneDrafts(options: {
  deps: UpstreamDeps;
  repo: RepoRef;
  names: ReadonlySet<string>;
  pulls: readonly OpenPull[];
}): Promise<GoneDraft[]> {
  const { deps, repo } = options;
  const { port } = deps;
  const prefix = deps.config.draftBranchPrefix;
  const out: GoneDraft[] = [];
  for (const branch of await port.listBranches({ repo, prefix })) {
    const draft = parseDraftBranch(branch.name, { draftPrefix: prefix });
    if (!draft?.workspace.startsWith(VARIANT_WORKSPACE_PREFIX)) continue;
    const name = draft.workspace.slice(VARIANT_WORKSPACE_PREFIX.length);
    if (options.names.has(name)) continue;
    const head = await port.readSnapshot({ repo, configPath: ".github/porchlight.yml", branch: branch.name });
    if (!head.branch) continue;
    const ours = await appCommitOf({
      port,
      repo,
      head: head.branch,
      checkName: UPGRADE_CHECK_NAME,
      appId: deps.appId,
    });
    const pull = options.pulls.find((p) => p.headRef === branch.name && p.sameRepository)?.number;
    out.push({
      name,
      branch: branch.name,
      packagePath: draft.packagePath,
      appExternalId: ours ? ours.externalId : null,
      pull,
    });
  }
  return out;
}
