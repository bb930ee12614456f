import "../helpers/promise-with-resolvers.js";
import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { runProtect } from "../../src/cli/protect.js";
import { rulesetBody } from "../../src/github/rulesets.js";
import { loadOperations, validateRequestBody } from "../helpers/github-schema.js";

const API = "https://api.github.com";
const RULESETS = "/repos/acme/pkgs/rulesets";
const restSchemaAvailable = loadOperations() !== null;

function expectValidRequestBody(body: unknown) {
  expect(validateRequestBody("POST", RULESETS, body)).toEqual([]);
}

function capture(env: Record<string, string | undefined> = { GITHUB_TOKEN: "t0ken", APP_ID: "4242" }) {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { env, stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) }, out, err };
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});

describe("porchlight protect", () => {
  it("creates a ruleset requiring porchlight/render from this app on the default branch", async () => {
    let sent: unknown;
    nock(API)
      .get("/repos/acme/pkgs/rulesets")
      .query({ includes_parents: "false", per_page: "100" })
      .reply(200, [{ id: 3, name: "someone else's", source_type: "Repository" }])
      .post("/repos/acme/pkgs/rulesets", (body) => {
        sent = body;
        return true;
      })
      .reply(201, {
        id: 17,
        name: "porchlight: require porchlight/render",
        _links: { html: { href: "https://github.com/acme/pkgs/rules/17" } },
      });

    const { io, out, err } = capture();
    expect(await runProtect(["acme/pkgs"], io)).toBe(0);

    expect(err).toEqual([]);
    expect(sent).toEqual({
      name: "porchlight: require porchlight/render",
      target: "branch",
      enforcement: "active",
      conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
      rules: [
        {
          type: "required_status_checks",
          parameters: {
            strict_required_status_checks_policy: false,
            required_status_checks: [{ context: "porchlight/render", integration_id: 4242 }],
          },
        },
      ],
    });
    expectValidRequestBody(sent);
    expect(out.join("")).toContain(
      'created ruleset 17 on acme/pkgs: the default branch requires "porchlight/render" from app 4242',
    );
  });

  it("updates its own ruleset instead of adding a second one, with --app-id and --require-pull-request", async () => {
    let sent: { rules?: Array<{ type: string }> } = {};
    nock(API)
      .get("/repos/acme/pkgs/rulesets")
      .query(true)
      .reply(200, [{ id: 9, name: "porchlight: require porchlight/render", source_type: "Repository" }])
      .put("/repos/acme/pkgs/rulesets/9", (body) => {
        sent = body;
        return true;
      })
      .reply(200, { id: 9, name: "porchlight: require porchlight/render" });

    const { io, out } = capture({ GITHUB_TOKEN: "t0ken" });
    expect(await runProtect(["protect", "acme/pkgs", "--app-id", "77", "--require-pull-request"], io)).toBe(
      0,
    );
    expect(sent.rules?.map((r) => r.type)).toEqual(["required_status_checks", "pull_request"]);
    expect(out.join("")).toMatch(/^updated ruleset 9 .* from app 77 and a pull request/);
  });

  it("validates every body variant against GitHub's description", () => {
    expectValidRequestBody(rulesetBody({ appId: 1 }));
    expectValidRequestBody(rulesetBody({ appId: 1, requirePullRequest: true, enforcement: "evaluate" }));
  });

  it.skipIf(!restSchemaAvailable)("the body check can fail (a wrong rule type is caught)", () => {
    const bad = { ...rulesetBody({ appId: 1 }), rules: [{ type: "required_status_checks", parameters: {} }] };
    expect(validateRequestBody("POST", RULESETS, bad)).toContain(
      "POST /repos/{owner}/{repo}/rulesets: body.rules[0]: matches 0 of oneOf (exactly 1 required)",
    );
  });

  it("refuses to run without an app id, which would let any check satisfy the rule", async () => {
    const { io, err } = capture({ GITHUB_TOKEN: "t0ken" });
    expect(await runProtect(["acme/pkgs"], io)).toBe(1);
    expect(err.join("")).toContain("the GitHub App id is missing: pass --app-id <id> or set APP_ID");
    const bad = capture({ GITHUB_TOKEN: "t0ken", APP_ID: "abc" });
    expect(await runProtect(["acme/pkgs"], bad.io)).toBe(1);
    expect(bad.err.join("")).toContain('not a positive integer: "abc"');
  });

  it("explains a 403 as missing admin rights", async () => {
    nock(API)
      .get("/repos/acme/pkgs/rulesets")
      .query(true)
      .reply(403, { message: "Resource not accessible by integration" });
    const { io, err } = capture();
    expect(await runProtect(["acme/pkgs"], io)).toBe(1);
    expect(err.join("")).toMatch(
      /Resource not accessible by integration \(HTTP 403\): the token needs admin rights/,
    );
  });
});
