import type { PullRequestState, RepoRef } from "../../github/port.js";

/**
 * A pull request as its job read it (the port's {@link PullRequestState}), with what the job knows
 * beside it: the one shape propose, publish (approve) and reject take.
 */
export interface PullRequestInput {
  repo: RepoRef;
  pull: PullRequestState;
  /** The head branch is in this repository (not a fork): only then may the app commit to it or delete it. */
  sameRepository: boolean;
  defaultBranch: string;
  /** The webhook action that asked (`opened`, `synchronize`, ...), when one did. */
  action?: string | undefined;
}
