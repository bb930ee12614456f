/**
 * A time limit on every attempt of every request an Octokit makes (REST and GraphQL), answer body
 * included. Without it a request GitHub never answers waits for undici's own limit (5 minutes for the
 * headers), holding its job and every later job of the same branch. GitHub itself ends requests after
 * 10 seconds.
 *
 * An attempt over the limit fails like a lost connection: Octokit turns it into a 500 `RequestError`,
 * its retry plugin tries again, and when the retries are spent the port reports GitHub as unavailable
 * (the job is retried later). The limit covers one attempt, from sending to the end of the body (read
 * into memory within the limit); time spent in the throttling queue or between retries is not counted.
 */
import type { Octokit } from "./client.js";

/** Default time limit of one request attempt (ms): 30 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** What a timed-out attempt was (for logs and metrics; the path carries no query string). */
export interface RequestTimeout {
  method: string;
  path: string;
  timeoutMs: number;
}

/** Options of {@link limitRequestTime}. */
export interface RequestTimeLimit {
  /** Time limit of one attempt (ms); 0 = none. */
  timeoutMs: number;
  /** Called once per attempt that ran out of time (before the retry). */
  onTimeout?: (timeout: RequestTimeout) => void;
}

/** The error a timed-out attempt fails with (its name is not `AbortError`, so Octokit retries it). */
export class RequestTimeoutError extends Error {
  override readonly name = "RequestTimeoutError";
  readonly timeout: RequestTimeout;
  constructor(timeout: RequestTimeout) {
    super(`GitHub did not answer ${timeout.method} ${timeout.path} within ${timeout.timeoutMs} ms`);
    this.timeout = timeout;
  }
}

/** True when `error` (or what it wraps, as Octokit's RequestError does) is a timed-out attempt. */
export function isRequestTimeout(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    if (e instanceof RequestTimeoutError) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

const LIMITED = Symbol("porchlight.requestTimeLimit");

type Fetch = typeof globalThis.fetch;

/** Statuses whose answer has no body (a Response refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split("?")[0] ?? url;
  }
}

function timedFetch(fetch: Fetch, limit: RequestTimeLimit): Fetch {
  return async (input, init) => {
    const timer = AbortSignal.timeout(limit.timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timer]) : timer;
    const timedOut = (): RequestTimeoutError => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      const timeout = { method: init?.method ?? "GET", path: pathOf(url), timeoutMs: limit.timeoutMs };
      limit.onTimeout?.(timeout);
      return new RequestTimeoutError(timeout);
    };
    try {
      const response = await fetch(input, { ...init, signal });
      // The body is read here, within the same limit: a body that stalls is the same timeout (Octokit
      // would otherwise take a failed body read for an empty answer).
      const body = NULL_BODY.has(response.status) ? null : await response.arrayBuffer();
      const buffered = new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
      Object.defineProperty(buffered, "url", { value: response.url });
      return buffered;
    } catch (error) {
      throw timer.aborted ? timedOut() : error;
    }
  };
}

interface RequestHook {
  hook: { before(name: "request", fn: (options: { request?: { fetch?: Fetch } }) => void): void };
}

/**
 * Limits every attempt of every request `octokit` makes to `limit.timeoutMs` (see the module comment).
 * Applying it again to the same client does nothing. Returns `octokit`.
 */
export function limitRequestTime<T extends Octokit>(octokit: T, limit: RequestTimeLimit): T {
  const marked = octokit as T & { [LIMITED]?: true };
  if (limit.timeoutMs <= 0 || marked[LIMITED]) return octokit;
  marked[LIMITED] = true;
  // Registered last, this hook runs first: the fetch it sets is what every retry of the request uses.
  (octokit as unknown as RequestHook).hook.before("request", (options) => {
    const fetch = options.request?.fetch ?? globalThis.fetch;
    if ((fetch as Fetch & { [LIMITED]?: true })[LIMITED]) return;
    const limited = Object.assign(timedFetch(fetch, limit), { [LIMITED]: true as const });
    options.request = { ...options.request, fetch: limited };
  });
  return octokit;
}
