import { describe, expect, it } from "vitest";
import type { RenderResult, StepReport } from "../../src/engine/types.js";
import {
  contentDrift,
  evaluateMergeGate,
  failingSteps,
  onlyRenderStatusDiffers,
} from "../../src/lifecycle/merge-gate.js";
import { unmetReadinessGates } from "../../src/lifecycle/readiness.js";
import type { PackageReport } from "../../src/report/annotations.js";
import { applyGateToReport } from "../../src/report/gate-report.js";

const NONE = { additions: [], deletions: [] };
const write = (path: string, content: string) => ({ path, content: bytes(content), mode: "100644" as const });

const bytes = (text: string) => new TextEncoder().encode(text);

const KPTFILE = (status: string, gates = "") =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\n${gates}${status}`;
const GATES = "info:\n  readinessGates:\n    - conditionType: approved\n    - conditionType: Rendered\n";
const CONDITIONS = (approved: string) =>
  `status:\n  conditions:\n    - type: Rendered\n      status: "True"\n      reason: RenderSuccess\n${approved}`;

function step(overrides: Partial<StepReport["status"]> = {}): StepReport {
  return {
    packagePath: ".",
    kind: "mutator",
    name: "ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2",
    status: { image: "set-labels", exitCode: 0, ...overrides },
    durationMs: 3,
    resourceCount: 1,
  };
}

function pkg(options: { path?: string; ok?: boolean; kptfile: string; steps?: StepReport[] }): PackageReport {
  const files = new Map([["Kptfile", bytes(options.kptfile)]]);
  const result: RenderResult = {
    ok: options.ok ?? true,
    files,
    status: { conditions: [] },
    steps: options.steps ?? [step()],
    ...(options.ok === false ? { error: "pkg.render: pkg .:\n\tpipeline.run: already handled error" } : {}),
  };
  return { packagePath: options.path ?? "app", result, inputFiles: files };
}

describe("readiness gates", () => {
  it("needs a True condition per gate, and answers Rendered from our own render", () => {
    expect(unmetReadinessGates(KPTFILE(CONDITIONS(""), GATES), true)).toEqual([
      { conditionType: "approved", message: 'no condition "approved" in status.conditions' },
    ]);
    const approvedFalse =
      '    - type: approved\n      status: "False"\n      reason: Pending\n      message: waiting\n';
    expect(unmetReadinessGates(KPTFILE(CONDITIONS(approvedFalse), GATES), true)[0]?.message).toBe(
      'condition "approved" is "False" (Pending: waiting)',
    );
    const approvedTrue = '    - type: approved\n      status: "True"\n';
    expect(unmetReadinessGates(KPTFILE(CONDITIONS(approvedTrue), GATES), true)).toEqual([]);
    // The file says Rendered True, but our render failed: the gate is not met.
    expect(
      unmetReadinessGates(KPTFILE(CONDITIONS(approvedTrue), GATES), false).map((g) => g.conditionType),
    ).toEqual(["Rendered"]);
  });

  it("has no gates for a Kptfile without readinessGates or one that does not parse", () => {
    expect(unmetReadinessGates(KPTFILE(""), true)).toEqual([]);
    expect(unmetReadinessGates("a: [", true)).toEqual([]);
  });
});

describe("merge gate", () => {
  it("passes a rendered package whose gates are met", () => {
    const approved = '    - type: approved\n      status: "True"\n';
    const verdict = evaluateMergeGate({
      packages: [pkg({ kptfile: KPTFILE(CONDITIONS(approved), GATES) })],
      changes: NONE,
    });
    expect(verdict).toEqual({ passed: true, problems: [] });
  });

  it("lists failing steps of a package that does not render, and skips its readiness", () => {
    const failing = step({
      exitCode: 1,
      errorResults: [{ message: "label value too long", severity: "error" }],
    });
    const report = pkg({ ok: false, kptfile: KPTFILE("", GATES), steps: [step(), failing] });
    expect(failingSteps(report)).toEqual([
      "mutator `ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2` exited 1: label value too long",
    ]);
    const verdict = evaluateMergeGate({ packages: [report], changes: NONE });
    expect(verdict.problems.map((p) => p.kind)).toEqual(["render-failed"]);
  });

  it("fails a package whose function exited 0 but reported an error result, naming file:line and field", () => {
    const ns =
      "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: old\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: new\n";
    const report = pkg({
      kptfile: KPTFILE(""),
      steps: [
        step(),
        step({
          results: [
            { message: "namespace set", severity: "info" },
            {
              message: "expect a single upstream namespace",
              severity: "error",
              resourceRef: { apiVersion: "v1", kind: "Namespace", name: "new" },
              field: { path: "metadata.name" },
              file: { path: "ns.yaml", index: 1 },
            },
            { message: "no file here", severity: "error" },
          ],
        }),
      ],
    });
    report.result.files?.set("ns.yaml", bytes(ns));
    // Rendering itself succeeded: kpt exits 0 here, and the step is not a failing step.
    expect(report.result.ok).toBe(true);
    expect(failingSteps(report)).toEqual([]);
    const verdict = evaluateMergeGate({ packages: [report], changes: NONE });
    expect(verdict.passed).toBe(false);
    expect(verdict.problems).toEqual([
      {
        kind: "error-results",
        packagePath: "app",
        results: [
          "mutator `ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2`: `app/ns.yaml:9` Namespace/new field `metadata.name`: expect a single upstream namespace",
          "mutator `ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2`: no file: no file here",
        ],
      },
    ]);
    const gated = applyGateToReport(
      { conclusion: "success", title: "Rendered 1 package: app", summary: "## porchlight/render\n\nx" },
      verdict,
    );
    expect(gated.conclusion).toBe("failure");
    expect(gated.title).toBe("Not mergeable: error results in app");
    expect(gated.summary).toContain("a function reported 2 error results (it exited 0");
  });

  it("words a file that does not parse by file and line, without kpt's chain", () => {
    const report = pkg({ ok: false, kptfile: KPTFILE(""), steps: [] });
    report.result.error = "pkg.render: pkg .: a.yaml: yaml: line 5: did not find expected key";
    const [problem] = evaluateMergeGate({ packages: [report], changes: NONE }).problems;
    expect(problem).toMatchObject({
      kind: "render-failed",
      message: "`app/a.yaml:5`: yaml: line 5: did not find expected key — the pipeline did not run",
    });
  });

  it("names file:line and field of the error results of a failing step", () => {
    const failing = step({
      exitCode: 1,
      results: [
        {
          message: "too long",
          severity: "error",
          field: { path: "metadata.labels.a" },
          file: { path: "cm.yaml" },
        },
      ],
    });
    const report = pkg({ ok: false, kptfile: KPTFILE(""), steps: [failing] });
    report.result.files?.set(
      "cm.yaml",
      bytes("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels:\n    a: b\n"),
    );
    expect(failingSteps(report)).toEqual([
      "mutator `ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2` exited 1:\n  - `app/cm.yaml:6` field `metadata.labels.a`: too long",
    ]);
  });

  it("attributes drift to the innermost package and ignores renderStatus-only Kptfile changes", () => {
    const outer = pkg({ path: "apps", kptfile: KPTFILE("") });
    const inner = pkg({ path: "apps/web", kptfile: KPTFILE("") });
    const before =
      "kind: Kptfile\nstatus:\n  renderStatus:\n    mutationSteps:\n      - results: [{message: changed 1}]\n";
    const after =
      "kind: Kptfile\nstatus:\n  renderStatus:\n    mutationSteps:\n      - results: [{message: changed 0}]\n";
    inner.inputFiles = new Map([["Kptfile", bytes(before)]]);
    inner.result.files = new Map([["Kptfile", bytes(after)]]);
    const drift = contentDrift([outer, inner], {
      additions: [write("apps/web/Kptfile", after), write("apps/web/deploy.yaml", "x")],
      deletions: ["apps/cm.yaml"],
    });
    expect([...drift]).toEqual([
      ["apps/web", ["apps/web/deploy.yaml"]],
      ["apps", ["apps/cm.yaml"]],
    ]);
    expect(onlyRenderStatusDiffers(bytes(before), bytes(after))).toBe(true);
    expect(onlyRenderStatusDiffers(bytes(before), bytes(`${after}  conditions: []\n`))).toBe(false);
    expect(onlyRenderStatusDiffers(undefined, bytes(after))).toBe(false);
    // The step list itself (a step added, an exit code) is part of what rendering produces.
    const twoSteps = `${after}      - image: set-labels:v0.2\n        exitCode: 0\n`;
    expect(onlyRenderStatusDiffers(bytes(after), bytes(twoSteps))).toBe(false);
    const stderr = after.replace("- results: [{message: changed 0}]", "- exitCode: 0\n        stderr: warm");
    const noStderr = after.replace("- results: [{message: changed 0}]", "- exitCode: 0");
    expect(onlyRenderStatusDiffers(bytes(stderr), bytes(noStderr))).toBe(true);
    expect(
      onlyRenderStatusDiffers(bytes(noStderr), bytes(noStderr.replace("exitCode: 0", "exitCode: 1"))),
    ).toBe(false);
    // Text that is not one YAML document is never "the same render".
    expect(onlyRenderStatusDiffers(bytes("a: [\n"), bytes("a: [\n"))).toBe(false);
    expect(onlyRenderStatusDiffers(bytes(`${after}---\nx: 1\n`), bytes(`${after}---\nx: 1\n`))).toBe(false);
  });

  it("turns a passing render report into a failure with a merge gate section", () => {
    const verdict = evaluateMergeGate({
      packages: [pkg({ kptfile: KPTFILE(CONDITIONS(""), GATES) })],
      changes: { additions: [write("app/deploy.yaml", "edited")], deletions: [] },
    });
    const report = applyGateToReport(
      {
        conclusion: "success",
        title: "Rendered 1 package: app",
        summary: "## porchlight/render\n\n### ✅ `app`",
      },
      verdict,
    );
    expect(report.conclusion).toBe("failure");
    expect(report.title).toBe("Not mergeable: content differs from its render");
    expect(report.summary).toMatchInlineSnapshot(`
      "## porchlight/render

      ### ⛔ Merge gate

      - \`app\`: content differs from what rendering produces (\`deploy.yaml\`) — rendered output or the Kptfile status was edited by hand; push to the draft branch to re-render
      - \`app\`: readiness gate \`approved\` is not met: no condition "approved" in status.conditions

      ### ✅ \`app\`"
    `);
    const passing = evaluateMergeGate({ packages: [], changes: NONE });
    const same = { conclusion: "success" as const, title: "t", summary: "s" };
    expect(applyGateToReport(same, passing)).toBe(same);
  });
});
