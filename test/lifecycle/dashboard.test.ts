/**
 * The package dashboard issue: its body (pure, deterministic) and the use-case against the in-memory
 * port — nothing when the repository has not opted in, one issue created, left alone while nothing
 * changed, edited when a verdict changes, reopened when a person closed it.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_REPO_CONFIG } from "../../src/config/schema.js";
import { updateDashboard } from "../../src/lifecycle/dashboard/update-dashboard.js";
import { MemoryDownstreamIndex } from "../../src/lifecycle/downstream-index.js";
import { DASHBOARD_LABEL, DASHBOARD_MARKER, dashboardBody } from "../../src/report/dashboard.js";
import { deployment, kptfile } from "../handlers/harness.js";
import { FakeRepo } from "./support/fake-repo.js";
import { memoryPort } from "./support/memory-port.js";

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe("dashboardBody", () => {
  const input = {
    repository: "acme/pkgs",
    packages: [
      { path: "web", latest: 3 },
      { path: "db", latest: undefined },
    ],
    open: [
      {
        package: "web",
        workspace: "v4",
        lifecycle: "Proposed" as const,
        branch: "drafts/web/v4",
        pullRequest: 7,
        verdict: "success" as const,
        upgrade: false,
      },
      {
        package: "db",
        workspace: "v1",
        lifecycle: "Draft" as const,
        branch: "drafts/db/v1",
        verdict: "failure" as const,
        upgrade: false,
      },
      {
        package: "web",
        workspace: "upstream-upgrade",
        lifecycle: "Draft" as const,
        branch: "drafts/web/upstream-upgrade",
        verdict: "failure" as const,
        upgrade: true,
      },
    ],
    downstreams: [
      { package: "web", latest: 3, downstream: "acme/deploy/east/web", revision: 1, variant: undefined },
      { package: "web", latest: 3, downstream: "acme/deploy/west/web", revision: 3, variant: "west" },
    ],
  };

  it("lists packages, open revisions with their verdict, downstreams behind (graph and table), failed upgrades", () => {
    const body = dashboardBody(input);
    expect(body.startsWith(`${DASHBOARD_MARKER}\n`)).toBe(true);
    expect(body).toContain("| `db` | - | 1 | 0 | - |\n| `web` | v3 | 0 | 1 | ❌ render failed |");
    expect(body).toContain("| `db` | `v1` | Draft | `drafts/db/v1` | ❌ render failed |");
    expect(body).toContain("| `web` | `v4` | Proposed | #7 | ✅ rendered |");
    expect(body).toContain("1 of 2 downstream packages are behind their upstream.");
    expect(body).toContain("```mermaid\nflowchart LR\n");
    expect(body).toContain('d0["acme/deploy/east/web<br/>v1 · 2 behind"]');
    expect(body).toContain("| `web` | v3 | `acme/deploy/east/web` | v1 | **2** |");
    expect(body).toContain("1 upgrade failed to render");
    expect(body).toContain("- ❌ `web`: `drafts/web/upstream-upgrade`\n");
    // the upgrade draft is listed under upgrades, not among the drafts a person opened
    expect(body).not.toContain("| `web` | `upstream-upgrade` |");
  });

  it("does not depend on the order things were listed in", () => {
    const shuffled = {
      ...input,
      packages: [...input.packages].reverse(),
      open: [...input.open].reverse(),
      downstreams: [...input.downstreams].reverse(),
    };
    expect(dashboardBody(shuffled)).toBe(dashboardBody(input));
  });
});

describe("updateDashboard", () => {
  function setup(dashboard: boolean) {
    const fake = new FakeRepo({
      "README.md": "# packages\n",
      "web/Kptfile": kptfile("web"),
      "web/deploy.yaml": deployment("web"),
    });
    const { port, calls } = memoryPort(fake);
    const config = { ...DEFAULT_REPO_CONFIG, dashboard };
    const index = new MemoryDownstreamIndex();
    const deps = { port, config, log: quiet, installationId: 1, index };
    return { fake, calls, deps, repo: { owner: fake.owner, repo: fake.repo } };
  }

  it("writes nothing in a repository that has not opted in", async () => {
    const { fake, deps, repo } = setup(false);
    expect(await updateDashboard(repo, deps)).toBe("dashboard off");
    expect(fake.issues).toEqual([]);
  });

  it("creates one issue, leaves it while nothing changes, edits it when a verdict does, reopens it", async () => {
    const { fake, deps, repo } = setup(true);
    const draft = fake.push({ branch: "drafts/web/v1", changes: { "web/deploy.yaml": deployment("web2") } });
    expect(await updateDashboard(repo, deps)).toMatch(/^dashboard #\d+ created$/);
    expect(fake.issues).toHaveLength(1);
    const issue = fake.issues[0]!;
    expect(issue.labels).toEqual([DASHBOARD_LABEL]);
    expect(issue.body).toContain("| `web` | `v1` | Draft | `drafts/web/v1` | · no check yet |");
    expect(await updateDashboard(repo, deps)).toBe(`dashboard #${issue.number} unchanged`);

    fake.checkRuns.push({
      id: fake.nextId(),
      name: "porchlight/render",
      head_sha: draft.after,
      status: "completed",
      conclusion: "failure",
    });
    expect(await updateDashboard(repo, deps)).toBe(`dashboard #${issue.number} updated`);
    expect(issue.body).toContain("| `web` | `v1` | Draft | `drafts/web/v1` | ❌ render failed |");

    issue.state = "closed";
    expect(await updateDashboard(repo, deps)).toBe(`dashboard #${issue.number} updated`);
    expect(issue.state).toBe("open");
    expect(fake.issues).toHaveLength(1);
  });

  it("shows the downstreams the index knows of, with how far behind each is", async () => {
    const { fake, deps, repo } = setup(true);
    fake.tags.set("web/v1", fake.heads.get("main")!);
    fake.tags.set("web/v2", fake.heads.get("main")!);
    await deps.index.setRepository(1, "acme/deploy", [
      {
        repo: "acme/deploy",
        package: "east/web",
        upstream: { repo: "acme/pkgs", package: "web", url: "https://github.com/acme/pkgs", ref: "web/v1" },
        lock: { ref: "web/v1", commit: undefined, revision: 1 },
        strategy: undefined,
        variant: undefined,
      },
    ]);
    await updateDashboard(repo, deps);
    const body = fake.issues[0]?.body ?? "";
    expect(body).toContain("1 of 1 downstream package is behind their upstream.");
    expect(body).toContain("| `web` | v2 | `acme/deploy/east/web` | v1 | **1** |");
  });
});
