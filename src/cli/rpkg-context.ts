/**
 * What the rpkg verbs share: the context a verb runs in, its errors, and finding a package revision by
 * the NAME `porchlight rpkg get` shows (`<repository>.<package path with dots>.<workspace>`, Porch's object
 * name) in the repositories the token reaches — `--repo` narrows the search to one.
 */
import type { GitHubPort, RepoRef } from "../github/port.js";
import type { RestClientEnv } from "../github/rest-client.js";
import type { PackageRevisionInfo } from "../lifecycle/revision-list.js";
import { listRepoRevisions, type RepoRevisions } from "./rpkg-revisions.js";
import { closeNames } from "./suggest.js";

/** A GitHub or lifecycle refusal: `Error: porchlight rpkg <verb>: <message>`, exit 1, no usage. */
export class VerbError extends Error {}
/** A usage error: `Error: <message>`, the verb's usage, exit 1. */
export class VerbUsage extends Error {}

/** A revision found by NAME, with the repository that holds it. */
export interface LocatedRevision extends PackageRevisionInfo {
  repo: RepoRef;
  defaultBranch: string;
}

/** What a verb runs with. */
export interface VerbCtx {
  port: GitHubPort;
  env: RestClientEnv;
  /** `--repo`: the repository a new revision goes to, and the only one NAMEs are looked up in. */
  repo: RepoRef | undefined;
  flags: Map<string, boolean | string | string[]>;
  names: string[];
  out: (text: string) => void;
  err: (text: string) => void;
  /** Listings already read, by `owner/repo` (lower case). */
  listings: Map<string, Promise<RepoRevisions>>;
}

/** A string flag's value. */
export const str = (ctx: VerbCtx, flag: string): string | undefined =>
  ctx.flags.get(flag) as string | undefined;

/** `--repo`, required. */
export function targetRepo(ctx: VerbCtx, verb: string): RepoRef {
  if (!ctx.repo)
    throw new VerbUsage(`${verb} needs --repo OWNER/REPO (the repository the Draft is created in)`);
  return ctx.repo;
}

/**
 * The GitHub web base of the API the CLI talks to (`https://github.com`, `https://ghe.example.com`,
 * `http://127.0.0.1:8080`): what clones record as `upstream.git.repo`.
 */
export function webBaseOf(env: RestClientEnv): string {
  return (env.GITHUB_API_URL ? new URL(env.GITHUB_API_URL).origin : "https://github.com").replace(
    "://api.github.com",
    "://github.com",
  );
}

/** The host upstream URLs are read against, as the app reads them (`github.com`, `http://127.0.0.1:8080`). */
export function upstreamHostOf(env: RestClientEnv): string {
  const url = new URL(webBaseOf(env));
  return url.protocol === "https:" ? url.host : `${url.protocol}//${url.host}`;
}

/**
 * The repositories the token reaches: an installation token's (`GET /installation/repositories`), else a
 * user token's (`GET /user/repos`). Throws GitHub's error when neither answers.
 */
export async function reachableRepositories(port: GitHubPort): Promise<RepoRef[]> {
  try {
    return await port.listInstallationRepositories();
  } catch (error) {
    if (!port.listUserRepositories) throw error;
    return port.listUserRepositories();
  }
}

/** The listing of `repo`, read once per command. */
export function listingOf(ctx: VerbCtx, repo: RepoRef): Promise<RepoRevisions> {
  const key = `${repo.owner}/${repo.repo}`.toLowerCase();
  let listing = ctx.listings.get(key);
  if (!listing) {
    listing = listRepoRevisions(ctx.port, repo);
    ctx.listings.set(key, listing);
  }
  return listing;
}

/**
 * The repositories a NAME can be in: `--repo` when given, else those the token reaches
 * whose name the NAME starts with (a NAME begins with its repository's name and a dot).
 */
async function candidateRepositories(ctx: VerbCtx, name: string, options: FindOptions): Promise<RepoRef[]> {
  const narrowed = options.anyRepository ? undefined : ctx.repo;
  if (narrowed) return [narrowed];
  const reached = await reachableRepositories(ctx.port);
  return reached.filter((r) => name.toLowerCase().startsWith(`${r.repo.toLowerCase()}.`));
}

/** How {@link findRevision} searches. */
export interface FindOptions {
  /** Search every repository the token reaches even with `--repo` (clone: `--repo` is the target). */
  anyRepository?: boolean;
}

/**
 * The revision called `name`: found in the repositories the token reaches (`--repo` narrows to one).
 * Refused naming the candidates when two repositories hold it, or the near names when none does.
 */
export async function findRevision(
  ctx: VerbCtx,
  name: string,
  options: FindOptions = {},
): Promise<LocatedRevision> {
  const repos = await candidateRepositories(ctx, name, options);
  const found: LocatedRevision[] = [];
  const near: string[] = [];
  const names: string[] = [];
  for (const repo of repos) {
    let listed: RepoRevisions;
    try {
      listed = await listingOf(ctx, repo);
    } catch (error) {
      if (repos.length === 1) throw error;
      ctx.err(`warning: ${repo.owner}/${repo.repo} not searched: ${(error as Error).message}\n`);
      continue;
    }
    for (const row of listed.rows) {
      if (row.name === name) found.push({ ...row, repo, defaultBranch: listed.defaultBranch });
      else if (row.packageName === name) near.push(row.name);
      else names.push(row.name);
    }
  }
  if (found.length === 1) return found[0]!;
  const where = (r: LocatedRevision) => `${r.repo.owner}/${r.repo.repo}`;
  if (found.length > 1)
    throw new VerbError(
      `${name} is ambiguous: ${found.map((r) => `${where(r)} ${r.name} (${r.lifecycle}, ${r.ref})`).join(", ")}; narrow it with --repo`,
    );
  const searched =
    repos.length === 0
      ? "no repository the token reaches has a name it starts with"
      : `not in ${repos.map((r) => `${r.owner}/${r.repo}`).join(", ")}`;
  const mean = [...near, ...closeNames(name, names)];
  throw new VerbError(
    `no package revision ${name} (${searched})${mean.length ? `; did you mean ${mean.join(", ")}?` : "; see porchlight rpkg get"}`,
  );
}

/** The branch of a Draft / Proposed revision (`drafts/pkg/ws`). */
export const branchOf = (r: PackageRevisionInfo): string => r.ref.replace(/^refs\/heads\//, "");
/** The tag of a Published revision (`pkg/v1`). */
export const tagOf = (r: PackageRevisionInfo): string => r.ref.replace(/^refs\/tags\//, "");
