import { describe, expect, it } from "vitest";
import { DEFAULT_REPO_CONFIG } from "../../src/config/schema.js";
import type { LifecycleDeps } from "../../src/lifecycle/deps.js";
import { renderDraftHead } from "../../src/lifecycle/draft/render-draft.js";
import { DEFAULT_SIZE_LIMITS } from "../../src/lifecycle/render-at-sha.js";
import { mayNotBeIdempotent } from "../../src/runtimes/idempotence.js";
import { EmbeddedQueue } from "../../src/server/embedded-queue.js";
import { RenderPoolClosedError } from "../../src/server/render-pool.js";
import { deployment, kptfile, SET_NAMESPACE } from "../handlers/harness.js";
import { FakeRepo } from "./support/fake-repo.js";
import { memoryPort } from "./support/memory-port.js";

const BRANCH = "drafts/web/v1";
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

function setup(renderWith: LifecycleDeps["engine"]["render"]) {
  const fake = new FakeRepo({ "README.md": "# packages\n" });
  const { port } = memoryPort(fake);
  const deps: LifecycleDeps = {
    port,
    engine: { render: renderWith, mayNotBeIdempotent },
    log: quiet,
    config: DEFAULT_REPO_CONFIG,
    lease: { holder: "me", leaseMs: 60_000 },
    limits: DEFAULT_SIZE_LIMITS,
    queue: new EmbeddedQueue(),
    installationId: 1,
  };
  const { after } = fake.push({
    branch: BRANCH,
    changes: { "web/Kptfile": kptfile("web", SET_NAMESPACE), "web/deploy.yaml": deployment("web") },
  });
  const render = () =>
    renderDraftHead(
      {
        repo: { owner: fake.owner, repo: fake.repo },
        head: { name: BRANCH, sha: after, message: "" },
        defaultBranch: "main",
        force: false,
      },
      deps,
    );
  return { fake, after, render };
}

describe("a render interrupted by shutdown", () => {
  it("gives no verdict: no check run, no commit, and the error reaches the queue (which runs the job again)", async () => {
    const { fake, after, render } = setup(() => Promise.reject(new RenderPoolClosedError()));
    await expect(render()).rejects.toBeInstanceOf(RenderPoolClosedError);
    expect(fake.checksOn(after)).toEqual([]);
    expect(fake.heads.get(BRANCH)).toBe(after);
  });

  it("while an unexpected engine error still concludes the run (never left without a verdict)", async () => {
    const { fake, after, render } = setup(() => Promise.reject(new Error("engine bug")));
    await expect(render()).rejects.toThrow("engine bug");
    expect(fake.checksOn(after).map((c) => c.conclusion)).toEqual(["failure"]);
  });
});
