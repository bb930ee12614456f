/** The one error port implementations throw, and the test for an outage. */

/** Thrown by port implementations. `status` is the HTTP status when GitHub answered. */
export class GitHubError extends Error {
  readonly kind: "unavailable" | "rejected";
  readonly status: number | undefined;
  readonly operation: string;
  /** `primary` / `secondary` when GitHub rate-limited the request (then `kind` is `unavailable`). */
  readonly rateLimit: "primary" | "secondary" | undefined;
  /** Seconds GitHub asked us to wait (`retry-after`, or until `x-ratelimit-reset`), when it said. */
  readonly retryAfterSeconds: number | undefined;
  constructor(options: {
    kind: "unavailable" | "rejected";
    status?: number | undefined;
    operation: string;
    message: string;
    rateLimit?: "primary" | "secondary" | undefined;
    retryAfterSeconds?: number | undefined;
  }) {
    super(`${options.operation}: ${options.message}`);
    this.name = "GitHubError";
    this.kind = options.kind;
    this.status = options.status;
    this.operation = options.operation;
    this.rateLimit = options.rateLimit;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** True when `error` says GitHub failed (retrying later may help), not that it refused. */
export function isGitHubOutage(error: unknown): boolean {
  return error instanceof GitHubError && error.kind === "unavailable";
}
