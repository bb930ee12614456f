import { describe, expect, it } from "vitest";
import { resultsFileText } from "../../src/cli/results-file.js";

describe("results.yaml", () => {
  it("writes a result's file without a path (the SDK's index -1 for a config with no index) as kpt does", () => {
    const text = resultsFileText(
      [
        {
          packagePath: ".",
          kind: "mutator",
          name: "gcr.io/kpt-fn/set-namespace:unstable",
          status: { image: "gcr.io/kpt-fn/set-namespace:unstable", exitCode: 0 },
          durationMs: 0,
          resourceCount: 1,
          results: [
            { message: "m", severity: "error", resourceRef: {}, file: { path: "", index: -1 } },
            { message: "done", severity: "info", file: { path: "a.yaml", index: 0 } },
          ],
        },
      ],
      0,
    );
    expect(text).toContain(
      "      - message: m\n        severity: error\n        resourceRef: {}\n        file:\n          index: -1\n      - message: done\n        severity: info\n        file:\n          path: a.yaml\n",
    );
  });
});
