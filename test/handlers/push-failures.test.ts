import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { PushOnFailure } from "../../src/engine/types.js";
import { pushEvent } from "../helpers/events.js";
import { commitContents, GitHubMock, useNock } from "../helpers/github-mock.js";
import {
  createTestProbot,
  deployment,
  kptfile,
  REPORT_FN,
  renderedCondition,
  SET_NAMESPACE,
} from "./harness.js";

useNock();

const SHA = "c".repeat(40);
const RENDERED = "d".repeat(40);
const BRANCH = "drafts/apps/web/v2";

const files = (pipeline: string[]): Record<string, string> => ({
  "apps/web/Kptfile": kptfile("web", pipeline),
  "apps/web/deploy.yaml": deployment("web"),
  "apps/web/more.yaml": `${deployment("api")}---\n${deployment("worker")}`,
});

const push = () =>
  pushEvent({
    branch: BRANCH,
    after: SHA,
    commits: [{ modified: ["apps/web/Kptfile", "apps/web/deploy.yaml"] }],
  });

type CheckBody = {
  head_sha: string;
  status?: string;
  conclusion?: string;
  output: {
    title: string;
    summary: string;
    annotations?: { path: string; start_line: number; annotation_level: string }[];
  };
};

/** The reads of the draft job for a head SHA holding `pkg`. */
const reads = (pkg: Record<string, string>) =>
  new GitHubMock().branch(BRANCH, SHA).config().checkRuns(SHA).tree(SHA, pkg).compare(SHA).blobs(pkg);

const FAILING_MUTATOR = [...SET_NAMESPACE, `  - exec: ${REPORT_FN} error 1`];

describe("a failing mutator", () => {
  it.each<[PushOnFailure, "nothing" | "status-only" | "partial"]>([
    ["None", "nothing"],
    ["Unrendered", "status-only"],
    ["PartiallyRendered", "partial"],
  ])("under pushOnFailure %s stores %s and reports failure", async (pushOnFailure, stored) => {
    const pkg = files(FAILING_MUTATOR);
    const gh = reads(pkg);
    if (stored !== "nothing") gh.commit(RENDERED);
    gh.createCheckRun();
    const probot = await createTestProbot({ pushOnFailure });

    await probot.receive(push());

    gh.assertDone();
    const check = gh.bodies("POST", "/check-runs")[0] as CheckBody;
    expect(check.conclusion).toBe("failure");
    expect(check.head_sha).toBe(stored === "nothing" ? SHA : RENDERED);
    expect(check.output.title).toMatch(/^Render failed: apps\/web/);
    expect(check.output.annotations?.length).toBe(3);
    if (stored === "nothing") {
      expect(gh.commitInputs()).toEqual([]);
      expect(check.output.summary).toContain("Nothing was stored.");
      return;
    }
    const written = commitContents(gh.commitInputs()[0]);
    expect(renderedCondition(written["apps/web/Kptfile"])).toMatchObject({
      status: "False",
      reason: "RenderFailed",
    });
    if (stored === "status-only") {
      expect(Object.keys(written)).toEqual(["apps/web/Kptfile"]);
    } else {
      expect(parse(written["apps/web/deploy.yaml"] ?? "").metadata.namespace).toBe("prod");
    }
  });
});

describe("a failing validator", () => {
  it("reports failure with an annotation at the line of each resource's field", async () => {
    const pkg = files([...SET_NAMESPACE, "validators:", `  - exec: ${REPORT_FN} error 1`]);
    const gh = reads(pkg);
    gh.commit(RENDERED).createCheckRun();
    const probot = await createTestProbot();

    await probot.receive(push());

    gh.assertDone();
    const check = gh.bodies("POST", "/check-runs")[0] as CheckBody;
    expect(check.conclusion).toBe("failure");
    const annotations = check.output.annotations ?? [];
    expect(annotations.map((a) => [a.path, a.start_line, a.annotation_level])).toEqual([
      ["apps/web/deploy.yaml", 4, "failure"],
      ["apps/web/more.yaml", 4, "failure"],
      ["apps/web/more.yaml", 11, "failure"],
    ]);
    expect(check.output.summary).toMatch(
      /\| ❌ \| validator \| `node \S+\/handlers\/fixtures\/report-results\.mjs error 1` \| 1 \| 3 \|/,
    );
  });
});

describe("an unknown function", () => {
  it("fails its step with a message naming the image, stores the status and reports failure", async () => {
    const pkg = files(["mutators:", "  - image: ghcr.io/example/not-a-builtin:v1"]);
    const gh = reads(pkg);
    gh.commit(RENDERED).createCheckRun();
    const probot = await createTestProbot();

    await probot.receive(push());

    gh.assertDone();
    const check = gh.bodies("POST", "/check-runs")[0] as CheckBody;
    expect(check.conclusion).toBe("failure");
    expect(check.output.summary).toContain("ghcr.io/example/not-a-builtin:v1");
    const written = commitContents(gh.commitInputs()[0]);
    expect(renderedCondition(written["apps/web/Kptfile"])).toMatchObject({ status: "False" });
  });
});

describe("more than 50 annotations", () => {
  it("sends the first 50 with the create and the rest with updates, completing on the last", async () => {
    // 3 resources x 20 warnings = 60 annotations; warnings do not fail the step (the Kptfile gains status).
    const pkg = files(["validators:", `  - exec: ${REPORT_FN} warning 20`]);
    const gh = reads(pkg);
    gh.commit(RENDERED).createCheckRun().updateCheckRun(1);
    const probot = await createTestProbot();

    await probot.receive(push());

    gh.assertDone();
    const create = gh.bodies("POST", "/check-runs")[0] as CheckBody;
    const [update] = gh.bodies("PATCH", "/check-runs/100") as CheckBody[];
    expect(create.head_sha).toBe(RENDERED);
    expect(create.status).toBe("in_progress");
    expect(create.conclusion).toBeUndefined();
    expect(create.output.annotations).toHaveLength(50);
    expect(update?.status).toBe("completed");
    expect(update?.conclusion).toBe("success");
    expect(update?.output.annotations).toHaveLength(10);
    expect(update?.output.annotations?.every((a) => a.annotation_level === "warning")).toBe(true);
  });

  it("finishes the same run when an update fails: the retry adopts it and sends only the missing annotations", async () => {
    const pkg = files(["validators:", `  - exec: ${REPORT_FN} warning 20`]);
    // What the render commit holds (one render in another process).
    const first = reads(pkg).commit(RENDERED).createCheckRun().updateCheckRun(1);
    await (await createTestProbot()).receive(push());
    first.assertDone();
    const rendered = { ...pkg } as Record<string, string>;
    for (const [path, content] of Object.entries(commitContents(first.commitInputs()[0])))
      rendered[path] = content ?? "";

    const gh = reads(pkg).commit(RENDERED).createCheckRun();
    gh.scope.patch(`${gh.base}/check-runs/100`).reply(gh.reply(500, { message: "Server Error" }));
    // The retry reads the branch again: its head is the render commit, whose run this process holds.
    gh.config().checkRuns(RENDERED, "created");
    // Adopting the run claims its lease at once (a PATCH of external_id alone), then the update.
    gh.tree(RENDERED, rendered).compare(RENDERED).blobs(rendered).updateCheckRun(2);
    const probot = await createTestProbot();

    await probot.receive(push());

    gh.assertDone();
    expect(probot.failures).toEqual([]);
    expect(gh.bodies("POST", "/check-runs")).toHaveLength(1);
    const patches = gh.bodies("PATCH", "/check-runs/100") as Partial<CheckBody & { external_id: string }>[];
    const claim = patches.find((p) => p.output === undefined);
    expect(claim?.external_id).toMatch(/ holder=\S+ until=\d+/);
    // The failed update is sent again (GitHub applied nothing), never the 50 the run already has.
    const updates = patches.filter((p) => p.output !== undefined) as CheckBody[];
    expect(updates.map((u) => u.output.annotations?.length)).toEqual([10, 10]);
    expect(updates.at(-1)).toMatchObject({ status: "completed", conclusion: "success" });
  });
});

describe("exec functions", () => {
  it("do not run unless the operator allows them: the step fails with kpt's message", async () => {
    const pkg = files(["mutators:", `  - exec: ${REPORT_FN} info 1`]);
    const gh = reads(pkg);
    gh.commit(RENDERED).createCheckRun();
    const probot = await createTestProbot({ allowExec: false });

    await probot.receive(push());

    gh.assertDone();
    const check = gh.bodies("POST", "/check-runs")[0] as CheckBody;
    expect(check.conclusion).toBe("failure");
    expect(check.output.summary).toContain("allow-exec");
    expect(check.output.summary).toContain("PORCHLIGHT_ALLOW_EXEC=true");
    expect(check.output.annotations).toBeUndefined();
  });
});

describe("exec paths in the app", () => {
  it("a relative path is refused naming the Kptfile and step, not run from the server's working directory", async () => {
    // `./bin/porchlight.js` is an executable of the server's own checkout (its working directory here).
    const pkg = files(["mutators:", "  - exec: ./bin/porchlight.js render"]);
    const gh = reads(pkg);
    gh.commit(RENDERED).createCheckRun();
    const probot = await createTestProbot({ allowExec: true });

    await probot.receive(push());

    gh.assertDone();
    const check = gh.bodies("POST", "/check-runs")[0] as CheckBody;
    expect(check.conclusion).toBe("failure");
    expect(check.output.summary).toContain(
      'Kptfile Kptfile pipeline.mutators[0]: exec "./bin/porchlight.js render": the path "./bin/porchlight.js" names a file of the package',
    );
  });
});
