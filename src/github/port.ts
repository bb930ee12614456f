/**
 * The GitHub port: every GitHub operation porchlight needs — the app's use-cases, reconciliation and
 * the command-line tools — in one interface whose methods are all required, named in GitHub's words
 * (Git Data API, Checks API, pull requests, GraphQL). Use-cases depend on this interface only; the
 * Octokit adapter in `./octokit/` is the only code that talks to Octokit.
 *
 * The interface is composed of one part per concern, each with its shapes, in `./port/`: the repository
 * and the state a job starts from (repository.ts), Git content and refs (git.ts), check runs
 * (checks.ts), pull requests (pulls.ts), comments and issues (issues.ts), installations and rulesets
 * (administration.ts), errors (errors.ts). Import them from here.
 *
 * Reads are batched where GitHub allows it (one GraphQL request for the state a job starts from, blobs
 * by the hundred); the one commit-writing method is compare-and-swap on the branch head.
 *
 * Errors: implementations throw {@link GitHubError} — `kind: "unavailable"` when GitHub failed (5xx,
 * network, primary or secondary rate limit: retrying later may help), `kind: "rejected"` when GitHub
 * refused the request (other 4xx). Expected outcomes that are not failures (a branch that moved, a tag
 * that exists) are typed results instead of errors.
 */
import type { AdministrationOperations } from "./port/administration.js";
import type { CheckRunOperations } from "./port/checks.js";
import type { GitContentOperations, RefOperations } from "./port/git.js";
import type { CommentOperations, IssueOperations } from "./port/issues.js";
import type { PullRequestOperations } from "./port/pulls.js";
import type { RepositoryOperations } from "./port/repository.js";

export type { AdministrationOperations, RulesetBody, RulesetOutcome } from "./port/administration.js";
export type {
  CheckAnnotation,
  CheckConclusion,
  CheckOutput,
  CheckRunFields,
  CheckRunOperations,
  CheckRunSummary,
} from "./port/checks.js";
export { GitHubError, isGitHubOutage } from "./port/errors.js";
export type {
  BlobRef,
  CommitOutcome,
  FileAddition,
  FileChanges,
  GitContentOperations,
  PathObject,
  RefOperations,
  RepoTree,
  TagOutcome,
  TreeEntry,
} from "./port/git.js";
export type { CommentOperations, Issue, IssueComment, IssueOperations } from "./port/issues.js";
export type { PullRequestOperations, PullRequestRef, PullRequestSummary } from "./port/pulls.js";
export type {
  BranchHead,
  PullRequestState,
  RepoRef,
  RepoSnapshot,
  RepositoryOperations,
} from "./port/repository.js";

/**
 * Everything porchlight asks of GitHub, one part per concern (see `./port/`). Extend with one method per
 * new operation rather than widening existing ones; every method is required (a test double implements
 * them all).
 */
export interface GitHubPort
  extends RepositoryOperations,
    GitContentOperations,
    RefOperations,
    CheckRunOperations,
    PullRequestOperations,
    CommentOperations,
    IssueOperations,
    AdministrationOperations {}
