/**
 * Which status a failed GitHub request is counted with: what GitHub answered, or `0` when it did not
 * answer at all (Octokit reports a refused connection as a 500 RequestError with no response). Real
 * Octokit clients against a local server and a loopback port nothing listens on.
 */
import http from "node:http";
import { type AddressInfo, createServer } from "node:net";
import { Probot, ProbotOctokit } from "probot";
import { afterEach, describe, expect, it } from "vitest";
import { readEnvironment } from "../../src/config/environment.js";
import { answeredStatus } from "../../src/github/octokit/errors.js";
import { startProduction } from "../../src/server/production.js";

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function client(baseUrl: string) {
  return new ProbotOctokit({
    auth: { token: "t" },
    baseUrl,
    retry: { enabled: false },
    throttle: { enabled: false },
  });
}

async function failure(request: Promise<unknown>): Promise<unknown> {
  return request.then(
    () => {
      throw new Error("the request succeeded");
    },
    (error: unknown) => error,
  );
}

describe("the status a failed GitHub request is counted with", () => {
  let server: http.Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
    server = undefined;
  });

  async function answering(status: number): Promise<string> {
    server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(status, { "content-type": "application/json" }).end('{"message":"no"}');
    });
    const s = server;
    await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  }

  it("is 0 when GitHub refuses the connection, GitHub's status when it answers", async () => {
    const refused = await failure(
      client(`http://127.0.0.1:${await closedPort()}`).rest.repos.get({ owner: "o", repo: "r" }),
    );
    // What Octokit makes of it: a 500 that GitHub never sent.
    expect((refused as { status?: number }).status).toBe(500);
    expect(answeredStatus(refused)).toBe(0);
    for (const status of [500, 502, 404]) {
      const url = await answering(status);
      const error = await failure(client(url).rest.repos.get({ owner: "o", repo: "r" }));
      expect(answeredStatus(error)).toBe(status);
      server?.close();
    }
    expect(answeredStatus(new Error("x"))).toBe(0);
  });

  it('counts a refused connection as porchlight_github_errors_total{status="0"}', async () => {
    const app = new Probot({ appId: 1, privateKey: "unused", secret: "s" });
    const production = startProduction({
      app,
      settings: readEnvironment({ PORCHLIGHT_RENDER_WORKERS: "0" }).server,
      permissions: { allowExec: false, allowContainers: false },
      signals: [],
      exit: () => undefined,
    });
    const octokit = production.instrumentOctokit(client(`http://127.0.0.1:${await closedPort()}`));
    await failure(octokit.rest.repos.get({ owner: "o", repo: "r" }));
    const { body } = await production.metrics.text();
    expect(body).toContain('porchlight_github_errors_total{status="0"} 1');
    expect(body).not.toContain('porchlight_github_errors_total{status="500"}');
  });
});
