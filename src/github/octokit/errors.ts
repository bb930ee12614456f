/**
 * Octokit failures → {@link GitHubError}: GitHub being unavailable (5xx, network, rate limits — retry
 * later) versus GitHub refusing the request (other 4xx), with GitHub's primary and secondary rate
 * limits told apart and their wait time kept.
 */
import { GitHubError } from "../port.js";

/** Octokit's RequestError / GraphqlResponseError, duck-typed. */
interface HttpErrorLike {
  status?: unknown;
  message?: unknown;
  response?: { data?: unknown; headers?: Record<string, unknown> };
  errors?: unknown;
}

function header(e: HttpErrorLike, name: string): string | undefined {
  const value = e.response?.headers?.[name];
  return value === undefined || value === null ? undefined : String(value);
}

function graphqlErrorTypes(e: HttpErrorLike): string[] {
  const errors = Array.isArray(e.errors)
    ? e.errors
    : ((e.response?.data as { errors?: unknown } | undefined)?.errors ?? []);
  return Array.isArray(errors)
    ? errors.flatMap((x) => (typeof x === "object" && x && "type" in x ? [String(x.type)] : []))
    : [];
}

/**
 * Which rate limit, if any, an error is: `secondary` when GitHub says so (403/429 "secondary rate
 * limit", or a `retry-after` header), `primary` when the quota is exhausted (`x-ratelimit-remaining: 0`,
 * 429, GraphQL `RATE_LIMITED`), with the seconds to wait when GitHub told.
 */
export function rateLimitOf(
  error: unknown,
): { kind: "primary" | "secondary"; retryAfterSeconds?: number } | undefined {
  const e = (typeof error === "object" && error !== null ? error : {}) as HttpErrorLike;
  const status = typeof e.status === "number" ? e.status : undefined;
  const message = typeof e.message === "string" ? e.message : "";
  const retryAfter = Number(header(e, "retry-after"));
  const waitFor = Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterSeconds: retryAfter } : {};
  if (
    (status === 403 || status === 429) &&
    (/secondary rate limit/i.test(message) || header(e, "retry-after"))
  ) {
    return { kind: "secondary", ...waitFor };
  }
  const exhausted = header(e, "x-ratelimit-remaining") === "0";
  if ((status === 403 && exhausted) || status === 429 || graphqlErrorTypes(e).includes("RATE_LIMITED")) {
    const reset = Number(header(e, "x-ratelimit-reset"));
    const untilReset =
      Number.isFinite(reset) && reset > 0 ? Math.max(0, Math.ceil(reset - Date.now() / 1000)) : undefined;
    return { kind: "primary", ...(untilReset !== undefined ? { retryAfterSeconds: untilReset } : {}) };
  }
  return undefined;
}

/**
 * The HTTP status GitHub answered a failed request with, `0` when it did not answer: Octokit reports a
 * request that got no response (connection refused or reset, DNS failure, time-out) as a `RequestError`
 * with status 500 and no `response`, which must not be counted as GitHub's own 500. Anything without a
 * numeric status is `0` too.
 */
export function answeredStatus(error: unknown): number {
  const e = (typeof error === "object" && error !== null ? error : {}) as HttpErrorLike;
  if (typeof e.status !== "number") return 0;
  return e.status === 500 && e.response === undefined ? 0 : e.status;
}

/**
 * Turns anything Octokit throws into a {@link GitHubError}: 5xx, rate limits and network errors (no
 * status) are `unavailable`; other HTTP errors are `rejected`.
 */
export function toGitHubError(operation: string, error: unknown): GitHubError {
  if (error instanceof GitHubError) return error;
  const e = (typeof error === "object" && error !== null ? error : {}) as HttpErrorLike;
  const status = typeof e.status === "number" ? e.status : undefined;
  const message = typeof e.message === "string" ? e.message : String(error);
  const limit = rateLimitOf(error);
  const graphqlRefusal = status === undefined && graphqlErrorTypes(e).length > 0 && !limit;
  const unavailable = !graphqlRefusal && (status === undefined || status >= 500 || limit !== undefined);
  return new GitHubError({
    kind: unavailable ? "unavailable" : "rejected",
    operation,
    message,
    status,
    rateLimit: limit?.kind,
    retryAfterSeconds: limit?.retryAfterSeconds,
  });
}

/** Runs one Octokit call, translating its failure. */
export async function call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toGitHubError(operation, error);
  }
}

/** Runs one Octokit call whose 404 means "absent": `undefined` then, other failures translated. */
export async function callOrAbsent<T>(operation: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (error) {
    const e = toGitHubError(operation, error);
    if (e.status === 404) return undefined;
    throw e;
  }
}
