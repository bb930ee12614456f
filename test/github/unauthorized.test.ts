/**
 * A 401 on an installation's request: the token is dropped and the request sent again after a backoff,
 * minting included (the app's JWT refused while clocks disagree); one that outlasts the retries is
 * GitHub being unavailable, so the job is retried by the queue rather than failed for good.
 */
import nock from "nock";
import { ProbotOctokit } from "probot";
import { afterEach, describe, expect, it } from "vitest";
import { retryUnauthorized } from "../../src/github/octokit/unauthorized.js";
import { GitHubError } from "../../src/github/port.js";

const API = "https://api.github.com";

function client(forgot: { count: number }) {
  const octokit = new ProbotOctokit({ retry: { enabled: false }, throttle: { enabled: false } });
  return retryUnauthorized(octokit, {
    installationId: 1,
    forgetToken: () => {
      forgot.count++;
    },
    delaysMs: [0, 0, 0],
    sleep: async () => undefined,
  });
}

afterEach(() => nock.cleanAll());

describe("retryUnauthorized", () => {
  it("mints again when minting answers 401 for a while", async () => {
    const scope = nock(API)
      .post("/app/installations/1/access_tokens")
      .times(2)
      .reply(401, { message: "'Issued at' claim ('iat') must be an Integer representing the time" })
      .post("/app/installations/1/access_tokens")
      .reply(201, { token: "t" });
    const forgot = { count: 0 };
    const answer = await client(forgot).request("POST /app/installations/{id}/access_tokens", { id: 1 });
    expect(answer.status).toBe(201);
    expect(forgot.count).toBe(2);
    scope.done();
  });

  it("gives up after the retries as GitHub unavailable (the queue retries the job)", async () => {
    nock(API).get("/repos/o/r").times(4).reply(401, { message: "Bad credentials" });
    const error = await client({ count: 0 })
      .request("GET /repos/{owner}/{repo}", { owner: "o", repo: "r" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubError);
    expect((error as GitHubError).kind).toBe("unavailable");
    expect((error as GitHubError).message).toContain("after 3 new token(s)");
  });
});
