/**
 * The downstream index in Redis (with `REDIS_URL`): every process of the app sees the same index, and
 * it survives restarts (reconciliation still refreshes it). One hash per installation, field =
 * downstream repository, value = its entries as JSON.
 */
import { Redis } from "ioredis";
import type { DownstreamEntry, DownstreamIndex } from "../lifecycle/downstream-index.js";
import { repoKey } from "../lifecycle/upstream-source.js";
import { waitForRedis } from "./redis-connection.js";

const PREFIX = "porchlight:downstreams:";

/** {@link DownstreamIndex} over Redis. */
export class RedisDownstreamIndex implements DownstreamIndex {
  private constructor(private readonly redis: Redis) {}

  /**
   * Connects to `url` (with ioredis' reconnection); rejects when Redis is not reachable within
   * `timeoutMs` (default 10 s) with an error naming `REDIS_URL` (password hidden) and what failed.
   */
  static async connect(url: string, timeoutMs?: number): Promise<RedisDownstreamIndex> {
    const redis = new Redis(url, { maxRetriesPerRequest: 3 });
    // Later connection errors are retried by ioredis and surface on the commands that fail.
    redis.on("error", () => undefined);
    try {
      await waitForRedis(redis, {
        url,
        purpose: "the downstream index",
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      });
    } catch (error) {
      redis.disconnect();
      throw error;
    }
    return new RedisDownstreamIndex(redis);
  }

  async setRepository(
    installationId: number,
    repo: string,
    entries: readonly DownstreamEntry[],
  ): Promise<void> {
    const key = `${PREFIX}${installationId}`;
    if (entries.length === 0) await this.redis.hdel(key, repoKey(repo));
    else await this.redis.hset(key, repoKey(repo), JSON.stringify(entries));
  }

  async downstreamsOf(installationId: number, upstreamRepo: string, pkg: string): Promise<DownstreamEntry[]> {
    return (await this.all(installationId)).filter(
      (e) => e.upstream.repo === repoKey(upstreamRepo) && e.upstream.package === pkg,
    );
  }

  async all(installationId: number): Promise<DownstreamEntry[]> {
    const map = await this.redis.hgetall(`${PREFIX}${installationId}`);
    return Object.keys(map)
      .sort()
      .flatMap((k) => JSON.parse(map[k]) as DownstreamEntry[]);
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    await this.redis.quit();
  }
}
