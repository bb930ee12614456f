/**
 * The clients of one installation, from Probot: `octokit` (Probot's installation client: retry, and
 * throttling that spaces every write — REST POST/PATCH/PUT/DELETE and every GraphQL request — one second
 * apart per installation, as GitHub asks for content-creating requests) and `reads`, the same client for
 * GraphQL QUERIES (the snapshot, blob batches), whose requests are not queued behind the writes: a query
 * creates nothing, and spacing them too would make a render cost four seconds of the installation's
 * write budget instead of two. Reads keep Probot's retry and rate-limit handling, at most
 * {@link READS_AT_ONCE} at once per installation. Throttling is kept in each process, also on Redis
 * (see {@link localThrottle}).
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

function readGroup(): Bottleneck.Group {
  readGroups ??= new Bottleneck.Group({ id: "porchlight-reads", maxConcurrent: READS_AT_ONCE, minTime: 0 });
  return readGroups;
}

/**
 * Probot's throttling options without its Redis connection: Bottleneck's cluster mode cannot recover
 * from a Redis that restarted empty (on Redis 7 its scripts' `UNKNOWN_CLIENT` / `SETTINGS_KEY_NOT_FOUND`
 * replies come back as `ERR UNKNOWN_CLIENT`, which it does not recognise, so every GitHub request of the
 * process would fail until it restarts). Each process paces its own requests instead.
 */
function localThrottle(throttle: Record<string, unknown>): Record<string, unknown> {
  const { connection: _connection, Bottleneck: _bottleneck, ...local } = throttle;
  return local;
}

/** Probot's installation client and its reads client (see the module comment). */
export async function installationClients(
  app: Probot,
  installationId: number,
  /** Applied to both clients (what `app.auth` applies to its own: time limit, error counting). */
  instrument: (octokit: Octokit) => Octokit = (octokit) => octokit,
): Promise<{ octokit: Octokit; reads: Octokit }> {
  const appOctokit = (await app.auth()) as Octokit & { auth(options: object): Promise<unknown> };
  // What Probot's `getAuthenticatedOctokit` does, with the throttling kept in the process and the write
  // limiter of the reads client replaced.
  let tokenCache: { delete(key: string): unknown } | undefined;
  const factoryOf =
    (reads: boolean): Factory =>
    ({ octokit: base, octokitOptions, ...authOptions }) => {
      tokenCache = (octokitOptions.auth as { cache?: typeof tokenCache } | undefined)?.cache ?? undefined;
      const throttle = octokitOptions.throttle;
      const Client = base.constructor as new (options: object) => Octokit;
      return new Client({
        ...octokitOptions,
        throttle: throttle?.enabled
          ? {
              ...localThrottle(throttle),
              id: String(installationId),
              ...(reads ? { write: readGroup() } : {}),
            }
          : { enabled: false },
        auth: { ...octokitOptions.auth, otherOptions: authOptions, installationId },
      });
    };
  const client = async (reads: boolean) =>
    instrument(
      (await appOctokit.auth({ type: "installation", installationId, factory: factoryOf(reads) })) as Octokit,
    );
  const octokit = await client(false);
  const reads = await client(true);
  // A 401 mints a new token and retries; an uninstalled or suspended installation stops its job.
  // The token cache is Probot's, shared by both clients (Octokit's app auth keys it by installation id).
  const forgetToken = () => void tokenCache?.delete(String(installationId));
  return {
    octokit: retryUnauthorized(octokit, { installationId, forgetToken }),
    reads: retryUnauthorized(reads, { installationId, forgetToken }),
  };
}

/** The app's own client (JWT: installations, ...) with the throttling kept in the process (see above). */
export async function appClient(
  app: Probot,
  instrument: (octokit: Octokit) => Octokit = (octokit) => octokit,
): Promise<Octokit> {
  const appOctokit = (await app.auth()) as Octokit & { auth(options: object): Promise<unknown> };
  const factory: Factory = ({ octokit: base, octokitOptions }) => {
    const throttle = octokitOptions.throttle;
    const Client = base.constructor as new (options: object) => Octokit;
    return new Client({
      ...octokitOptions,
      throttle: throttle?.enabled ? localThrottle(throttle) : { enabled: false },
      auth: { ...octokitOptions.auth },
    });
  };
  // The installation id only routes the call to the factory: the client authenticates as the app.
  return instrument((await appOctokit.auth({ type: "installation", installationId: 1, factory })) as Octokit);
}
