import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import type { RenderOptions, RenderResult } from "../../src/engine/types.js";
import type { GitHubPort, RepoTree } from "../../src/github/port.js";
import {
  type DraftPush,
  isRenderCommit,
  renderCommitMessage,
  renderDraft,
} from "../../src/lifecycle/render-draft.js";
import { WorkQueue } from "../../src/lifecycle/work-queue.js";
import type { PackageReport } from "../../src/report/annotations.js";
import { createDefaultRuntime } from "../../src/runtimes/default.js";

const enc = (s: string) => new TextEncoder().encode(s);
const KPTFILE = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: web\n";
const CM = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n";

/** An in-memory port: one package at every sha; readTree of `slowSha` waits for `release()`. */
function memoryPort(slowSha: string, kptfileText = KPTFILE) {
  const calls: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let next = 0;
  const port: GitHubPort = {
    async readTree({ sha }): Promise<RepoTree> {
      calls.push(`readTree ${sha}`);
      if (sha === slowSha) await gate;
      return {
        treeSha: `tree-${sha}`,
        entries: [
          { path: "web/Kptfile", mode: "100644", type: "blob", sha: "k" },
          { path: "web/cm.yaml", mode: "100644", type: "blob", sha: "c" },
        ],
      };
    },
    readBlob: async ({ sha }) => enc(sha === "k" ? kptfileText : CM),
    createBlob: async () => "blob",
    createTree: async () => "tree",
    createCommit: async ({ parents }) => {
      calls.push(`createCommit ${parents[0]}`);
      return `rendered-${next++}`;
    },
    updateBranch: async ({ sha }) => ({ kind: "updated", sha }),
    createCheckRun: async ({ headSha, conclusion }) => {
      calls.push(`check ${headSha} ${conclusion}`);
      return { id: 1 };
    },
    updateCheckRun: async () => undefined,
  };
  return { port, calls, release };
}

const push = (sha: string): DraftPush => ({
  repo: { owner: "o", repo: "r" },
  branch: "drafts/web/v1",
  sha,
  changedPaths: ["web/cm.yaml"],
});

describe("renderDraft", () => {
  it("serializes a branch: while one render runs, only the newest waiting push is rendered", async () => {
    const { port, calls, release } = memoryPort("sha1");
    const deps = {
      port,
      engine: { renderPackage, runtime: createDefaultRuntime({ allowExec: false, useContainers: false }) },
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      queue: new WorkQueue(),
    };
    const first = renderDraft(push("sha1"), deps);
    const second = renderDraft(push("sha2"), deps);
    const third = renderDraft(push("sha3"), deps);
    expect(await second).toEqual({ kind: "superseded" });
    release();
    expect(await first).toMatchObject({
      kind: "reported",
      committedSha: "rendered-0",
      conclusion: "success",
    });
    expect(await third).toMatchObject({ kind: "reported", committedSha: "rendered-1" });
    expect(calls).toEqual([
      "readTree sha1",
      "createCommit sha1",
      "check rendered-0 success",
      "readTree sha3",
      "createCommit sha3",
      "check rendered-1 success",
    ]);
  });

  it("ignores branches outside the drafts prefix", async () => {
    const { port, calls } = memoryPort("none");
    const deps = {
      port,
      engine: { renderPackage, runtime: createDefaultRuntime({ allowExec: false, useContainers: false }) },
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    };
    expect(await renderDraft({ ...push("x"), branch: "main" }, deps)).toMatchObject({ kind: "ignored" });
    expect(calls).toEqual([]);
  });
});

describe("the render commit", () => {
  it("is not made when only the steps' results in status.renderStatus differ (whatever the engine wrote)", async () => {
    const status = (message: string) =>
      `${KPTFILE}status:\n  conditions:\n    - type: Rendered\n      status: "True"\n      reason: RenderSuccess\n  renderStatus:\n    mutationSteps:\n      - image: set-namespace\n        exitCode: 0\n        results:\n          - message: ${message}\n`;
    const { port, calls } = memoryPort("none", status("1 value(s) changed"));
    // An engine that re-writes the Kptfile with a different result message, everything else equal.
    const engine = {
      runtime: createDefaultRuntime({ allowExec: false, useContainers: false }),
      renderPackage: async ({ files }: RenderOptions): Promise<RenderResult> => ({
        ok: true,
        files: new Map([...files, ["Kptfile", enc(status("no value changed"))]]),
        status: { conditions: [{ type: "Rendered", status: "True", reason: "RenderSuccess" }] },
        steps: [],
      }),
    };
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const outcome = await renderDraft(push("sha1"), { port, engine, log });
    expect(outcome).toMatchObject({ kind: "reported", checkSha: "sha1", conclusion: "success" });
    expect(calls).toEqual(["readTree sha1", "check sha1 success"]);

    // A changed step list is content: committed.
    engine.renderPackage = async ({ files }) => ({
      ok: true,
      files: new Map([
        ...files,
        ["Kptfile", enc(status("x").replace("exitCode: 0", "exitCode: 0\n        exec: x"))],
      ]),
      status: { conditions: [{ type: "Rendered", status: "True", reason: "RenderSuccess" }] },
      steps: [],
    });
    expect(await renderDraft(push("sha2"), { port, engine, log })).toMatchObject({
      committedSha: "rendered-0",
    });
  });
});

describe("renderDraft and the app's own commit", () => {
  it("gives the render commit exactly one check when its push arrives while the render still runs", async () => {
    const { port, calls } = memoryPort("none");
    const deps = {
      port,
      engine: { renderPackage, runtime: createDefaultRuntime({ allowExec: false, useContainers: false }) },
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      queue: new WorkQueue(),
    };
    // GitHub delivers the push of the app's own commit as soon as the ref moves — concurrently with the
    // task that is still posting its check run.
    let echo: Promise<unknown> | undefined;
    port.updateBranch = async ({ sha }) => {
      echo ??= renderDraft(
        { ...push(sha), headCommitMessage: `Render web\n\nRendered-From: ${"a".repeat(40)}\n` },
        deps,
      );
      return { kind: "updated", sha };
    };
    expect(await renderDraft(push("a".repeat(40)), deps)).toMatchObject({ committedSha: "rendered-0" });
    expect(await echo).toEqual({ kind: "duplicate" });
    expect(calls.filter((c) => c.startsWith("check rendered-0"))).toHaveLength(1);
    expect(calls.filter((c) => c.startsWith("readTree rendered-0"))).toHaveLength(0);
  });
});

describe("renderDraft in a burst of pushes", () => {
  it("skips a queued push whose sha the branch no longer points at (no render, no commit, no check)", async () => {
    const { port, calls, release } = memoryPort("sha1");
    const heads: string[] = [];
    port.readBranchHead = async ({ branch }) => {
      heads.push(branch);
      return "sha3"; // pushed meanwhile; its webhook is still on the way
    };
    const deps = {
      port,
      engine: { renderPackage, runtime: createDefaultRuntime({ allowExec: false, useContainers: false }) },
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      queue: new WorkQueue(),
    };
    const first = renderDraft(push("sha1"), deps);
    const second = renderDraft(push("sha2"), deps);
    release();
    expect(await first).toMatchObject({ kind: "reported" }); // it started at once: not re-checked
    expect(await second).toEqual({ kind: "superseded" });
    expect(heads).toEqual(["drafts/web/v1"]); // one ref read, for the queued push only
    expect(calls.filter((c) => c.includes("sha2"))).toEqual([]);
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
