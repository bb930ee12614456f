/**
 * The time limit on GitHub request attempts, against a local HTTP server that stops answering: a
 * request that never gets its headers, and one whose body stalls, are cut at the limit and retried by
 * Octokit like a lost connection; with the retries spent, the port reports GitHub as unavailable.
 * Limits are generous where an answer is expected (a loaded machine must not time out the good attempt).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ProbotOctokit } from "probot";
import { afterEach, describe, expect, it } from "vitest";
import { createOctokitPort } from "../../src/github/octokit/index.js";
import { isRequestTimeout, limitRequestTime, type RequestTimeout } from "../../src/github/octokit/timeout.js";
import { GitHubError } from "../../src/github/port.js";

type Answer = "hang" | "stall-body" | "ok";

/** A server answering its n-th request as `answers[n]` (the last one repeats). */
async function serve(answers: Answer[]): Promise<{ url: string; hits: () => number; close(): void }> {
  let hits = 0;
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const answer = answers[Math.min(hits, answers.length - 1)];
    hits++;
    req.resume();
    if (answer === "hang") {
      open.add(res);
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    if (answer === "stall-body") {
      res.write('{"default_branch":');
      open.add(res);
      return;
    }
    res.end(JSON.stringify({ default_branch: "main", name: "r", owner: { login: "o" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      server.close();
    },
  };
}

function client(baseUrl: string, retries: number) {
  return new ProbotOctokit({
    auth: { token: "t" },
    baseUrl,
    retry: { retries, retryAfterBaseValue: 10 },
    throttle: { enabled: false },
  });
}

describe("a time limit on each GitHub request attempt", () => {
  let server: Awaited<ReturnType<typeof serve>> | undefined;
  afterEach(() => server?.close());

  it("retries a request whose answer never comes, and reports the timed-out attempt", async () => {
    server = await serve(["hang", "ok"]);
    const timeouts: RequestTimeout[] = [];
    const octokit = limitRequestTime(client(server.url, 3), {
      timeoutMs: 1500,
      onTimeout: (t) => timeouts.push(t),
    });
    const { data } = await octokit.rest.repos.get({ owner: "o", repo: "r" });
    expect(data.default_branch).toBe("main");
    expect(server.hits()).toBe(2);
    expect(timeouts).toEqual([{ method: "GET", path: "/repos/o/r", timeoutMs: 1500 }]);
  });

  it("cuts an answer whose body stalls, within the same limit", async () => {
    server = await serve(["stall-body", "ok"]);
    const timeouts: RequestTimeout[] = [];
    const octokit = limitRequestTime(client(server.url, 3), {
      timeoutMs: 1500,
      onTimeout: (t) => timeouts.push(t),
    });
    const { data } = await octokit.rest.repos.get({ owner: "o", repo: "r" });
    expect(data.default_branch).toBe("main");
    expect(timeouts).toHaveLength(1);
  });

  it("reports GitHub as unavailable once every attempt timed out", async () => {
    server = await serve(["hang"]);
    const timeouts: RequestTimeout[] = [];
    const octokit = limitRequestTime(client(server.url, 1), {
      timeoutMs: 200,
      onTimeout: (t) => timeouts.push(t),
    });
    const error = await octokit.rest.repos.get({ owner: "o", repo: "r" }).catch((e: unknown) => e);
    expect(isRequestTimeout(error)).toBe(true);
    expect(timeouts).toHaveLength(2);
    const port = createOctokitPort(octokit);
    const failure = await port
      .compareFiles({ repo: { owner: "o", repo: "r" }, base: "main", head: "x" })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GitHubError);
    expect(failure).toMatchObject({ kind: "unavailable" });
    expect((failure as Error).message).toContain("within 200 ms");
  });

  it("never sends a check run's create twice (GitHub may have made the run it did not answer for)", async () => {
    server = await serve(["hang", "ok"]);
    const timeouts: RequestTimeout[] = [];
    const octokit = limitRequestTime(client(server.url, 3), {
      timeoutMs: 500,
      onTimeout: (t) => timeouts.push(t),
    });
    const failure = await createOctokitPort(octokit)
      .createCheckRun({
        repo: { owner: "o", repo: "r" },
        name: "porchlight/render",
        headSha: "a".repeat(40),
        status: "in_progress",
      })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ kind: "unavailable", operation: "checks.create" });
    expect(server.hits()).toBe(1);
    expect(timeouts.map((t) => `${t.method} ${t.path}`)).toEqual(["POST /repos/o/r/check-runs"]);
  });

  it("leaves a client without a limit alone (0), and applies itself once", async () => {
    server = await serve(["ok"]);
    const octokit = client(server.url, 0);
    expect(limitRequestTime(octokit, { timeoutMs: 0 })).toBe(octokit);
    limitRequestTime(octokit, { timeoutMs: 5000 });
    limitRequestTime(octokit, { timeoutMs: 5000 });
    expect((await octokit.rest.repos.get({ owner: "o", repo: "r" })).data.name).toBe("r");
  });
});
