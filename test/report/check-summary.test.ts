import { describe, expect, it } from "vitest";
import {
  formatCheckReport,
  renderFailureCause,
  SUMMARY_LIMIT,
  truncateSummary,
} from "../../src/report/check-summary.js";
import { pkgReport, step } from "./fixtures.js";

describe("formatCheckReport", () => {
  it("reports success with one table row per step and unfiled results", () => {
    const report = formatCheckReport({
      packages: [
        pkgReport({
          packagePath: "apps/web",
          files: {},
          steps: [
            step({
              name: "set-namespace:v0.4",
              durationMs: 7,
              results: [{ message: "namespace set", severity: "info" }],
            }),
            step({ name: "kubeval", kind: "validator", durationMs: 1500 }),
          ],
        }),
      ],
      notes: ["Rendering abc1234 changed nothing: no commit."],
    });
    expect(report.conclusion).toBe("success");
    expect(report.title).toBe("Rendered 1 package: apps/web");
    expect(report.summary).toMatchInlineSnapshot(`
      "## porchlight/render

      ### ✅ \`apps/web\`

      | | Step | Function | Exit code | Results | Duration |
      |---|---|---|---|---|---|
      | ✅ | mutator | \`set-namespace:v0.4\` | 0 | 1 | 7 ms |
      | ✅ | validator | \`kubeval\` | 0 | 0 | 1.5 s |

      Results without a file:

      - **info**: namespace set

      > Rendering abc1234 changed nothing: no commit."
    `);
  });

  it("reports failure with the error chain, stderr and what was stored", () => {
    const report = formatCheckReport({
      packages: [
        pkgReport({
          packagePath: "",
          files: {},
          stored: false,
          steps: [
            step({ name: "ghcr.io/x/unknown:v1", exitCode: 1, executionError: "no runtime can run it" }),
          ],
        }),
      ],
    });
    expect(report.conclusion).toBe("failure");
    expect(report.title).toBe("Render failed: (repository root) (1 failed step)");
    expect(report.summary).toContain("| ❌ | mutator | `ghcr.io/x/unknown:v1` | 1 | 0 |");
    expect(report.summary).toContain("no runtime can run it");
    // kpt's internal chain (`pkg.render: pkg .: pipeline.run: already handled error`) is never shown.
    expect(report.summary).not.toMatch(/already handled error|pipeline\.run|pkg\.render/);
    expect(report.summary).toContain("Nothing was stored.");
  });

  it("says the pipeline did not run when a file does not parse, with the cause and no kpt chain", () => {
    const failed = pkgReport({ packagePath: "app", files: {}, ok: false, steps: [] });
    failed.result.error = "pkg.render: pkg .: a.yaml: yaml: line 5: did not find expected key";
    const report = formatCheckReport({ packages: [failed] });
    expect(report.summary).toContain("The pipeline did not run");
    expect(report.summary).not.toContain("No pipeline steps.");
    expect(report.summary).toContain("a.yaml: yaml: line 5: did not find expected key");
    expect(report.summary).not.toContain("pkg.render");
  });

  it("names the subpackage of a nested chain and keeps only its cause", () => {
    expect(renderFailureCause("pkg.render: pkg .:\n\tpipeline.run: already handled error")).toBeUndefined();
    expect(renderFailureCause("pkg.render: pkg ./db:\n\tpipeline.run: function x failed: boom")).toBe(
      "function x failed: boom",
    );
    const failed = pkgReport({ packagePath: "app", files: {}, ok: false, steps: [] });
    failed.result.error = "pkg.render: pkg ./db:\n\tpipeline.run: function x failed: boom";
    const { summary } = formatCheckReport({ packages: [failed] });
    expect(summary).toContain("In subpackage `./db`:");
    expect(summary).toContain("function x failed: boom");
    expect(summary).not.toContain("pipeline.run");
  });

  it("marks a step and its package failed when a function reports an error result with exit code 0", () => {
    const report = formatCheckReport({
      packages: [
        pkgReport({
          packagePath: "app",
          files: {},
          steps: [
            step({
              name: "set-namespace:v0.4",
              results: [{ message: "expect a single upstream namespace", severity: "error" }],
            }),
          ],
        }),
      ],
    });
    expect(report.summary).toContain("### ❌ `app`");
    expect(report.summary).toContain("| ❌ | mutator | `set-namespace:v0.4` | 0 | 1 |");
  });

  it("keeps the summary within GitHub's limit", () => {
    const results = Array.from({ length: 3000 }, (_, i) => ({
      message: `result ${i} ${"x".repeat(40)}`,
      severity: "info" as const,
    }));
    const report = formatCheckReport({
      packages: [pkgReport({ packagePath: "p", files: {}, steps: [step({ name: "f", results })] })],
    });
    expect(report.summary.length).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(report.summary).toMatch(/summary truncated/);
  });
});

describe("truncateSummary", () => {
  it("leaves short text alone", () => {
    expect(truncateSummary("abc", 10)).toBe("abc");
  });
});
