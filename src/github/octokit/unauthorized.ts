/**
 * 401 "Bad credentials" on an installation's requests: GitHub has not replicated a token it just minted,
 * the cached token expired early or was revoked and re-minted, or clocks disagree. Octokit's app auth
 * retries only within 5 s of minting and otherwise keeps the cached token until its hour is up, so
 * every request would fail for up to an hour. Here a 401 drops the cached token (so the request, sent
 * again after a backoff, mints a new one) ({@link UNAUTHORIZED_RETRY_MS}); minting answered 401 (the app's
 * JWT refused, e.g. clock skew) is retried alike; a 401 that outlasts them is thrown as
 * GitHub being unavailable (the job is retried with the queue's backoff, minting again). When minting
 * itself says the installation is gone (404, or 403 suspended), or GitHub answers 403 "suspended", an
 * {@link InstallationGoneError} ends the job without a retry.
 */
import { InstallationGoneError } from "../installation-gone.js";
import { GitHubError } from "../port.js";
import type { Octokit } from "./client.js";

/** Waits before the retries of a request answered 401 (ms): 1 s, 2 s, 4 s. */
export const UNAUTHORIZED_RETRY_MS = [1000, 2000, 4000] as const;

interface HttpErrorLike {
  status?: number;
  message?: string;
  request?: { url?: string };
}

type RequestFn = (options: Record<string, unknown>) => Promise<unknown>;
interface Hooks {
  hook: {
    wrap(name: "request", fn: (request: RequestFn, options: Record<string, unknown>) => unknown): void;
  };
}

const MINT = /\/app\/installations\/\d+\/access_tokens$/;

/** The installation is gone when its token cannot be minted (404, 403 suspended) or it is suspended. */
function goneError(installationId: number, error: unknown): InstallationGoneError | undefined {
  const e = (typeof error === "object" && error !== null ? error : {}) as HttpErrorLike;
  const message = e.message ?? "";
  const minting = MINT.test(e.request?.url ?? "");
  if (e.status === 403 && /suspended/i.test(message))
    return new InstallationGoneError({ installationId, reason: "suspended", status: 403, message });
  if (minting && e.status === 404)
    return new InstallationGoneError({ installationId, reason: "uninstalled", status: 404, message });
  return undefined;
}

/** Adds the 401 handling of the module comment to an installation client. Returns it. */
export function retryUnauthorized<T extends Octokit>(
  octokit: T,
  options: {
    installationId: number;
    /** Drops the installation's cached token (the next request mints one). */
    forgetToken: () => void;
    delaysMs?: readonly number[];
    sleep?: (ms: number) => Promise<void>;
  },
): T {
  const { installationId } = options;
  const delays = options.delaysMs ?? UNAUTHORIZED_RETRY_MS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const client = octokit as unknown as Hooks;
  client.hook.wrap("request", async (request, requestOptions) => {
    for (let retry = 0; ; retry++) {
      try {
        return await request(requestOptions);
      } catch (error) {
        const gone = goneError(installationId, error);
        if (gone) throw gone;
        // A 401 on minting too: the app's JWT refused while clocks disagree, as GitHub documents.
        if ((error as HttpErrorLike).status !== 401) throw error;
        const delay = delays[retry];
        if (delay === undefined)
          throw new GitHubError({
            kind: "unavailable",
            operation: `${String(requestOptions.method)} ${String(requestOptions.url)}`,
            status: 401,
            message: `${(error as HttpErrorLike).message ?? "Bad credentials"} (after ${retry} new token(s))`,
          });
        options.forgetToken();
        await sleep(delay);
      }
    }
  });
  return octokit;
}
