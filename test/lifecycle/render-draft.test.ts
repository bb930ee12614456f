import { describe, expect, it } from "vitest";
import { DEFAULT_REPO_CONFIG } from "../../src/config/schema.js";
import { renderPackage } from "../../src/engine/render.js";
import type { RenderResult } from "../../src/engine/types.js";
import type { LifecycleDeps } from "../../src/lifecycle/deps.js";
import { renderDraftHead } from "../../src/lifecycle/draft/render-draft.js";
import { DEFAULT_SIZE_LIMITS, type PackageRender } from "../../src/lifecycle/render-at-sha.js";
import type { PackageReport } from "../../src/report/annotations.js";
import { isRenderCommit, renderCommitMessage } from "../../src/report/commit-message.js";
import { createDefaultRuntime } from "../../src/runtimes/default.js";
import { mayNotBeIdempotent } from "../../src/runtimes/idempotence.js";
import { EmbeddedQueue } from "../../src/server/embedded-queue.js";
import { deployment, kptfile, SET_NAMESPACE } from "../handlers/harness.js";
import { FakeRepo } from "./support/fake-repo.js";
import { memoryPort } from "./support/memory-port.js";

const BRANCH = "drafts/web/v1";
const enc = (s: string) => new TextEncoder().encode(s);
const runtime = createDefaultRuntime({ allowExec: false, useContainers: false });
/** The engine as the app's root binds it: `renderPackage` with the builtin runtime. */
const bound: LifecycleDeps["engine"] = {
  render: (request) => renderPackage({ ...request, runtime }),
  mayNotBeIdempotent,
};
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

function setup(engine: LifecycleDeps["engine"] = bound, hooks: { beforeCommit?: () => void } = {}) {
  const fake = new FakeRepo({ "README.md": "# packages\n" });
  const { port, calls } = memoryPort(fake, hooks);
  const queue = new EmbeddedQueue();
  const deps: LifecycleDeps = {
    port,
    engine,
    log: quiet,
    config: DEFAULT_REPO_CONFIG,
    lease: { holder: "me", leaseMs: 60_000 },
    limits: DEFAULT_SIZE_LIMITS,
    queue,
    installationId: 1,
  };
  const head = () => {
    const sha = fake.heads.get(BRANCH) as string;
    return { name: BRANCH, sha, message: fake.commits.get(sha)?.message ?? "" };
  };
  const render = (force = false) =>
    renderDraftHead(
      { repo: { owner: fake.owner, repo: fake.repo }, head: head(), defaultBranch: "main", force },
      deps,
    );
  return { fake, calls, queue, deps, render, head };
}

const pushWeb = (fake: FakeRepo, replicas = 1) =>
  fake.push({
    branch: BRANCH,
    changes: {
      "web/Kptfile": kptfile("web", SET_NAMESPACE),
      "web/deploy.yaml": deployment("web").replace("replicas: 1", `replicas: ${replicas}`),
    },
  });

describe("renderDraftHead", () => {
  it("renders the head, commits onto it as one compare-and-swap, and reports the render commit", async () => {
    const { fake, render, calls } = setup();
    const { after } = pushWeb(fake);
    const outcome = await render();
    expect(outcome).toMatchObject({ kind: "reported", conclusion: "success", packages: ["web"] });
    const committed = fake.heads.get(BRANCH) as string;
    expect(committed).not.toBe(after);
    expect(fake.commits.get(committed)?.parents).toEqual([after]);
    expect(calls).toContain(`commitFiles ${after}`);
    expect(fake.checksOn(committed).map((c) => c.conclusion)).toEqual(["success"]);
    expect(fake.checksOn(after)).toEqual([]);
  });

  it("drops its result when the branch moves during the render, and asks for the new head", async () => {
    let newer: string | undefined;
    const { fake, render, queue } = setup(bound, {
      beforeCommit: () => {
        newer ??= pushWeb(fake, 5).after;
      },
    });
    const { after } = pushWeb(fake);
    const enqueued: unknown[] = [];
    queue.enqueue = async (job) => void enqueued.push(job);
    expect(await render()).toEqual({ kind: "superseded" });
    expect(fake.heads.get(BRANCH)).toBe(newer); // the user's push stands
    expect(fake.checksOn(after)).toEqual([]);
    expect(enqueued).toEqual([
      { kind: "draft", installationId: 1, repo: { owner: "acme", repo: "pkgs" }, branch: BRANCH },
    ]);
  });

  it("never undoes a rewind: a branch reset to an ancestor during the render keeps its reset", async () => {
    const { fake, render } = setup(bound, {
      beforeCommit: () => fake.heads.set(BRANCH, ancestor),
    });
    const { after: ancestor } = pushWeb(fake);
    pushWeb(fake, 3);
    expect(await render()).toEqual({ kind: "superseded" });
    // A fast-forward-only ref update would have accepted the render commit (its parent descends from
    // the ancestor); the compare-and-swap refuses it.
    expect(fake.heads.get(BRANCH)).toBe(ancestor);
  });

  it("does nothing for a head that already has a verdict, unless it is a re-run", async () => {
    const { fake, render, calls } = setup();
    pushWeb(fake);
    await render();
    const committed = fake.heads.get(BRANCH) as string;
    calls.length = 0;
    expect(await render()).toEqual({ kind: "existing" });
    expect(calls).toEqual([]); // remembered: not even a listing
    expect(await render(true)).toMatchObject({ kind: "reported", checkSha: committed });
    expect(fake.checksOn(committed)).toHaveLength(2);
  });

  it("is not made when only the steps' results in status.renderStatus differ (whatever the engine wrote)", async () => {
    const status = (message: string) =>
      `${kptfile("web")}status:\n  conditions:\n    - type: Rendered\n      status: "True"\n      reason: RenderSuccess\n  renderStatus:\n    mutationSteps:\n      - image: set-namespace\n        exitCode: 0\n        results:\n          - message: ${message}\n`;
    const engine = {
      mayNotBeIdempotent,
      render: async ({ files }: PackageRender): Promise<RenderResult> => ({
        ok: true,
        files: new Map([...files, ["Kptfile", enc(status("no value changed"))]]),
        status: { conditions: [{ type: "Rendered", status: "True", reason: "RenderSuccess" }] },
        steps: [],
      }),
    };
    const { fake, render } = setup(engine);
    const { after } = fake.push({ branch: BRANCH, changes: { "web/Kptfile": status("1 value(s) changed") } });
    expect(await render()).toMatchObject({ kind: "reported", checkSha: after, conclusion: "success" });
    expect(fake.heads.get(BRANCH)).toBe(after);
  });

  it("never commits on the app's own render commit, and its runs agree when a function is not idempotent", async () => {
    let n = 0;
    const engine = {
      mayNotBeIdempotent,
      render: async ({ files }: PackageRender): Promise<RenderResult> => ({
        ok: true,
        files: new Map([...files, ["stamp.yaml", enc(`n: ${n++}\n`)]]),
        status: { conditions: [] },
        // An exec function: code from outside porchlight, which may not be idempotent.
        steps: [
          {
            packagePath: ".",
            kind: "mutator",
            name: "./stamp",
            fnType: "exec",
            status: { exec: "./stamp", exitCode: 0 },
            durationMs: 1,
            resourceCount: 1,
          },
        ],
      }),
    };
    const { fake, render } = setup(engine);
    pushWeb(fake);
    await render();
    const committed = fake.heads.get(BRANCH) as string;
    expect(isRenderCommit(fake.commits.get(committed)?.message)).toBe(true);
    // The render commit is judged on its content rendered again: it is not what rendering produces.
    expect(fake.latestCheck(committed)?.conclusion).toBe("failure");
    expect(fake.latestCheck(committed)?.output?.summary).toContain(
      "content differs from what rendering produces",
    );
    // A re-run renders it again, commits nothing (loop guard) and agrees.
    expect(await render(true)).toMatchObject({
      kind: "reported",
      checkSha: committed,
      conclusion: "failure",
    });
    expect(fake.heads.get(BRANCH)).toBe(committed);
    expect(fake.checksOn(committed).map((c) => c.conclusion)).toEqual(["failure", "failure"]);
    expect(fake.latestCheck(committed)?.output?.summary).toContain("not idempotent");
  });
});

describe("isRenderCommit", () => {
  it("recognises the Rendered-From trailer only as a trailer line", () => {
    expect(isRenderCommit(`Render web\n\nbody\n\nRendered-From: ${"a".repeat(40)}\n`)).toBe(true);
    expect(isRenderCommit("Fix: mention Rendered-From: abc in text")).toBe(false);
    expect(isRenderCommit(undefined)).toBe(false);
  });
});

describe("renderCommitMessage", () => {
  const pkg = (packagePath: string, ok = true) =>
    ({ packagePath, inputFiles: new Map(), result: { ok } }) as unknown as PackageReport;
  const sha = "c".repeat(40);

  it("names up to three packages in the subject", () => {
    const message = renderCommitMessage({ packages: [pkg("apps/web"), pkg("apps/db")], sha });
    expect(message.split("\n")[0]).toBe("Render apps/web, apps/db");
    expect(message.endsWith(`\n\nRendered-From: ${sha}\n`)).toBe(true);
  });

  it("counts many packages in a short subject, lists them in the body, keeps the trailer last", () => {
    const packages = Array.from({ length: 400 }, (_, i) => pkg(`pkgs/p${i}`, i !== 7));
    const message = renderCommitMessage({ packages, sha });
    const lines = message.split("\n");
    expect(lines[0]).toBe("Render 400 packages");
    expect(lines).toContain("- pkgs/p0");
    expect(lines).toContain("- pkgs/p399");
    expect(message).toContain("Rendering failed for pkgs/p7;");
    expect(lines.at(-2)).toBe(`Rendered-From: ${sha}`);
    expect(isRenderCommit(message)).toBe(true);
  });
});

describe("mayNotBeIdempotent", () => {
  const step = (name: string, fnType: "image" | "exec" = "image") =>
    ({
      packagePath: ".",
      kind: "mutator",
      name,
      fnType,
      status: { exitCode: 0 },
      durationMs: 0,
      resourceCount: 0,
    }) as const;

  it("trusts the builtin catalog functions, not exec programs, containers or Starlark scripts", () => {
    expect(mayNotBeIdempotent(step("ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.1"))).toBe(false);
    expect(mayNotBeIdempotent(step("./stamp.sh", "exec"))).toBe(true);
    expect(mayNotBeIdempotent(step("example.com/fns/custom:v1"))).toBe(true);
    expect(mayNotBeIdempotent(step("ghcr.io/kptdev/krm-functions-catalog/starlark:v0.4.3"))).toBe(true);
  });
});

describe("a branch that looks like a Draft but is not one", () => {
  it("gets one neutral check saying why, and nothing is rendered or committed", async () => {
    for (const [branch, why] of [
      ["draft/web/v1", "`draft/` is not the Draft branch prefix `drafts/`"],
      ["drafts/web", "has no workspace"],
    ] as const) {
      const { fake, deps } = setup();
      const { after } = fake.push({
        branch,
        changes: { "web/Kptfile": kptfile("web", SET_NAMESPACE), "web/deploy.yaml": deployment("web") },
      });
      const head = { name: branch, sha: after, message: "x" };
      const repo = { owner: fake.owner, repo: fake.repo };
      const outcome = await renderDraftHead({ repo, head, defaultBranch: "main" }, deps);
      expect(outcome.kind).toBe("ignored");
      expect(fake.heads.get(branch), "nothing committed").toBe(after);
      const checks = fake.checksOn(after);
      expect(checks.map((c) => c.conclusion)).toEqual(["neutral"]);
      expect(checks[0]?.output?.title).toBe("Not a Draft: nothing rendered");
      expect(checks[0]?.output?.summary).toContain(why);
      // The same sha again (a redelivery): no second check.
      await renderDraftHead({ repo, head, defaultBranch: "main" }, deps);
      expect(fake.checksOn(after)).toHaveLength(1);
    }
  });

  it("leaves other branches alone", async () => {
    const { fake, deps } = setup();
    const { after } = fake.push({
      branch: "feature/x",
      changes: { "web/Kptfile": kptfile("web", SET_NAMESPACE) },
    });
    const repo = { owner: fake.owner, repo: fake.repo };
    await renderDraftHead(
      { repo, head: { name: "feature/x", sha: after, message: "x" }, defaultBranch: "main" },
      deps,
    );
    expect(fake.checksOn(after)).toEqual([]);
  });
});
