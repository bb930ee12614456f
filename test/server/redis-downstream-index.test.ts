/**
 * The downstream index over a real Redis (what the app uses with REDIS_URL): shared by every process,
 * replaced per repository. Skips visibly without redis-server.
 */
import { type AddressInfo, createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DownstreamEntry } from "../../src/lifecycle/downstream-index.js";
import { RedisDownstreamIndex } from "../../src/server/redis-downstream-index.js";
import { redisAvailable, startRedis, type TestRedis } from "../helpers/redis.js";

const available = redisAvailable();
if (!available) console.warn("redis downstream index test skipped: redis-server is not installed");

const entry = (repo: string, pkg: string, upstream: string): DownstreamEntry => ({
  repo,
  package: pkg,
  upstream: { repo: upstream, package: "base", url: `https://github.com/${upstream}`, ref: "v1" },
  lock: { ref: "base/v1", commit: "c", revision: 1 },
  strategy: "resource-merge",
  variant: undefined,
});

describe.skipIf(!available)("RedisDownstreamIndex", () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(async () => redis?.stop());

  it("is shared by two connections and replaced per repository", async () => {
    const a = await RedisDownstreamIndex.connect(redis.url);
    const b = await RedisDownstreamIndex.connect(redis.url);
    try {
      await a.setRepository(1, "org/Deploy", [entry("org/deploy", "east", "org/blueprints")]);
      await a.setRepository(1, "org/other", [entry("org/other", "x", "org/elsewhere")]);
      expect((await b.downstreamsOf(1, "org/Blueprints", "base")).map((e) => e.package)).toEqual(["east"]);
      expect(await b.downstreamsOf(2, "org/blueprints", "base")).toEqual([]);
      await b.setRepository(1, "org/deploy", []);
      expect((await a.all(1)).map((e) => e.repo)).toEqual(["org/other"]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe("RedisDownstreamIndex: Redis unreachable", () => {
  it("connect() fails naming REDIS_URL (password hidden) and what failed", async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const error = await RedisDownstreamIndex.connect(`redis://:s3cret@127.0.0.1:${port}`, 300).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain(`REDIS_URL=redis://:***@127.0.0.1:${port} (the downstream index)`);
    expect(error?.message).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    expect(error?.message).not.toContain("s3cret");
  });
});
