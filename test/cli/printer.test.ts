import { describe, expect, it } from "vitest";
import { createRenderPrinter, formatDuration } from "../../src/cli/printer.js";

describe("render printer", () => {
  it("formats durations like kpt (Go durations truncated to 100ms)", () => {
    expect(formatDuration(42)).toBe("0s");
    expect(formatDuration(180)).toBe("100ms");
    expect(formatDuration(1234)).toBe("1.2s");
    expect(formatDuration(62_500)).toBe("1m2.5s");
  });

  it("prints results, stderr and exit code of a failed step, truncating stderr to 4 lines", () => {
    let out = "";
    const printer = createRenderPrinter({ write: (t) => (out += t), truncate: true });
    printer.onEvent({ type: "package-start", packagePath: ".", packageName: "app" });
    const step = { packagePath: ".", kind: "mutator" as const, name: "set-labels:v1", resourceCount: 3 };
    printer.onEvent({ type: "step-start", step });
    printer.onEvent({
      type: "step-end",
      step: {
        ...step,
        durationMs: 0,
        results: [{ message: "no config", severity: "info" }],
        status: {
          image: "ghcr.io/kptdev/krm-functions-catalog/set-labels:v1",
          exitCode: 1,
          stderr: "1\n2\n3\n4\n5\n6",
        },
      },
    });
    expect(out).toBe(
      [
        'Package "app":',
        '[RUNNING] "ghcr.io/kptdev/krm-functions-catalog/set-labels:v1" on package "app"',
        '[FAIL] "ghcr.io/kptdev/krm-functions-catalog/set-labels:v1" in 0s',
        "  [Results]:",
        "    [info]: no config",
        "  Stderr:",
        "    1",
        "    2",
        "    3",
        "    4",
        "    ...(2 line(s) truncated, use '--truncate-output=false' to disable)",
        "  Exit code: 1",
        "",
      ].join("\n"),
    );
  });
});
