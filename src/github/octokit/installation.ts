/**
 * The clients of one installation, from Probot: `octokit` (Probot's installation client: retry, and
 * throttling that spaces every write — REST POST/PATCH/PUT/DELETE and every GraphQL request — one second
 * apart per installation, as GitHub asks for content-creating requests) and `reads`, the same client for
 * GraphQL QUERIES (the snapshot, blob batches), whose requests are not queued behind the writes: a query
 * creates nothing, and spacing them too would make a render cost four seconds of the installation's
 * write budget instead of two. Reads keep Probot's retry and rate-limit handling, at most
 * {@link READS_AT_ONCE} at once per installation (shared by every process when throttling is on Redis).
 */
import Bottleneck from "bottleneck";
import type { Probot } from "probot";
import type { Octokit } from "./client.js";
import { retryUnauthorized } from "./unauthorized.js";

/** GraphQL queries of one installation in flight at once. */
export const READS_AT_ONCE = 4;

type Factory = (options: {
  octokit: Octokit;
  octokitOptions: { throttle?: Record<string, unknown> & { enabled?: boolean }; auth?: object } & Record<
    string,
    unknown
  >;
}) => Octokit;

let readGroups: Bottleneck.Group | undefined;

function readGroup(throttle: Record<string, unknown>): Bottleneck.Group {
  readGroups ??= new Bottleneck.Group({
    id: "porchlight-reads",
    maxConcurrent: READS_AT_ONCE,
    minTime: 0,
    ...(throttle.connection ? { connection: throttle.connection as Bottleneck.IORedisConnection } : {}),
  });
  return readGroups;
}

/** Probot's installation client and its reads client (see the module comment). */
export async function installationClients(
  app: Probot,
  installationId: number,
  /** Applied to the reads client (what `app.auth` applies to the others: time limit, error counting). */
  instrument: (octokit: Octokit) => Octokit = (octokit) => octokit,
): Promise<{ octokit: Octokit; reads: Octokit }> {
  const octokit = (await app.auth(installationId)) as Octokit;
  const appOctokit = (await app.auth()) as Octokit & { auth(options: object): Promise<unknown> };
  // What Probot's `getAuthenticatedOctokit` does, with the write limiter of the reads client replaced.
  let tokenCache: { delete(key: string): unknown } | undefined;
  const factory: Factory = ({ octokit: base, octokitOptions, ...authOptions }) => {
    tokenCache = (octokitOptions.auth as { cache?: typeof tokenCache } | undefined)?.cache ?? undefined;
    const throttle = octokitOptions.throttle;
    const Client = base.constructor as new (options: object) => Octokit;
    return new Client({
      ...octokitOptions,
      throttle: throttle?.enabled
        ? { ...throttle, id: String(installationId), write: readGroup(throttle) }
        : { enabled: false },
      auth: { ...octokitOptions.auth, otherOptions: authOptions, installationId },
    });
  };
  const reads = (await appOctokit.auth({ type: "installation", installationId, factory })) as Octokit;
  // A 401 mints a new token and retries; an uninstalled or suspended installation stops its job.
  // The token cache is Probot's, shared by both clients (Octokit's app auth keys it by installation id).
  const forgetToken = () => void tokenCache?.delete(String(installationId));
  return {
    octokit: retryUnauthorized(octokit, { installationId, forgetToken }),
    reads: retryUnauthorized(instrument(reads), { installationId, forgetToken }),
  };
}
