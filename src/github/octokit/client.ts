/**
 * The Octokit the adapter runs on (Probot 14's `ProbotOctokit`: REST methods under `.rest`, pagination,
 * GraphQL, retry and throttling) and a GraphQL call that keeps partial data: GitHub answers HTTP 200
 * with `errors` next to `data` when only part of a query failed (a missing repository, a stale head).
 */
import type { ProbotOctokit } from "probot";
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
