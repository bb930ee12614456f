/**
 * The Octokit the adapter runs on (Probot 14's `ProbotOctokit`: REST methods under `.rest`, pagination,
 * GraphQL, retry and throttling) and a GraphQL call that keeps partial data: GitHub answers HTTP 200
 * with `errors` next to `data` when only part of a query failed (a missing repository, a stale head).
 */
import type { ProbotOctokit } from "probot";
import { GitHubError } from "../port.js";
import { call } from "./errors.js";

/** An authenticated Octokit: a Probot installation client, or the CLI's token client. */
export type Octokit = InstanceType<typeof ProbotOctokit>;

/** One GraphQL error as GitHub returns it. */
export interface GraphqlError {
  type?: string;
  message: string;
  path?: (string | number)[];
}

/** A GraphQL answer: `data` (possibly partial) and the `errors` next to it. */
export interface GraphqlAnswer<T> {
  data: T | undefined;
  errors: GraphqlError[];
}

function graphqlFailure(error: unknown): { data?: unknown; errors: GraphqlError[] } | undefined {
  if (typeof error !== "object" || error === null || !("errors" in error)) return undefined;
  const { errors, data } = error as { errors?: unknown; data?: unknown };
  if (!Array.isArray(errors) || "status" in error) return undefined;
  return { data, errors: errors as GraphqlError[] };
}

/**
 * Runs a GraphQL document and returns data AND errors instead of throwing on GraphQL-level errors
 * (HTTP-level failures still throw a GitHubError, via {@link call}).
 */
export async function graphql<T>(
  octokit: Octokit,
  operation: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GraphqlAnswer<T>> {
  return call(operation, async () => {
    try {
      return { data: await octokit.graphql<T>(query, variables), errors: [] };
    } catch (error) {
      const failure = graphqlFailure(error);
      if (!failure || failure.errors.some((e) => e.type === "RATE_LIMITED")) throw error;
      return { data: (failure.data ?? undefined) as T | undefined, errors: failure.errors };
    }
  });
}

/**
 * Many aliased fields of one `repository` in one GraphQL query (`<alias>: object(...) {...}`), answered as
 * `alias → node` (null where GitHub has none). Throws GitHubError: `rejected` when the repository is not
 * found, `unavailable` when GitHub answered no data.
 */
export async function repositoryFields<T>(
  octokit: Octokit,
  repo: { owner: string; repo: string },
  operation: string,
  /** `query porchlight<Name>`, written out (test/app-manifest.test.ts reads the operations from the source). */
  head: string,
  fields: readonly string[],
): Promise<Record<string, T | null>> {
  const query = `${head}($owner: String!, $name: String!) {\n  repository(owner: $owner, name: $name) {\n    ${fields.join("\n    ")}\n  }\n}`;
  const answer = await graphql<{ repository: Record<string, T | null> | null }>(octokit, operation, query, {
    owner: repo.owner,
    name: repo.repo,
  });
  const nodes = answer.data?.repository;
  if (nodes) return nodes;
  throw new GitHubError({
    kind: answer.errors.some((e) => e.type === "NOT_FOUND") ? "rejected" : "unavailable",
    operation,
    message: answer.errors.map((e) => e.message).join("; ") || "no data",
  });
}

/**
 * Request option that makes Octokit hand back a success body unparsed (a stream), for {@link parseJson}.
 * `@octokit/request` parses JSON with json-with-bigint: about 8 times slower than `JSON.parse` on large
 * bodies (a recursive tree of 11,000 entries: ~190 ms of CPU instead of ~25 ms) and, on some multi-MB
 * bodies, its regexp overflows the stack and the text comes back unparsed. Error bodies are still parsed.
 */
export const RAW_BODY = { parseSuccessResponseBody: false } as const;

/**
 * The JSON of a success body requested with {@link RAW_BODY}, parsed with `JSON.parse` (a stream or a
 * string; anything else is returned as it is, e.g. what a test double already parsed). Typed as the
 * route's documented response.
 */
export async function parseJson<T>(body: T | ReadableStream<Uint8Array> | string): Promise<T> {
  if (typeof body === "string") return JSON.parse(body) as T;
  if (body instanceof ReadableStream) return JSON.parse(await new Response(body).text()) as T;
  return body;
}
