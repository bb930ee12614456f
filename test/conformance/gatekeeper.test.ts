/**
 * The `gatekeeper` builtin's yardsticks (../shared): the Gatekeeper library's general policies with their
 * gator suites, rendered through the CLI by ../shared/rego/gatekeeper-suites.py (the target: at least 95% of
 * the Rego cases pass; the floor below is today's figure), and every gatekeeper case of the conformance corpus's `*-functions` and `*-eval` groups
 * with STRICT=1 (stderr and results.yaml checked too). Skipped with a message without ../shared; under
 * CI=true a missing ../shared fails instead.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuiltCli, sharedDir } from "../helpers/built-cli.js";

const suitesScript = path.join(sharedDir, "rego/gatekeeper-suites.py");
const library = path.join(sharedDir, "rego/gatekeeper-library/general");
const conformanceDir = path.join(sharedDir, "conformance");
const available =
  existsSync(suitesScript) && existsSync(library) && existsSync(path.join(conformanceDir, "run.sh"));

/** The corpus's gatekeeper cases: 5 render cases, 1 `kpt fn eval` case. */
const CASES = [
  "catalog-examples-functions/gatekeeper-invalid-configmap",
  "catalog-examples-functions/gatekeeper-warning-only",
  "catalog-tests-functions/gatekeeper/dryrun",
  "catalog-tests-functions/gatekeeper/valid",
  "kpt-fn-render-functions/structured-results-from-muiltiple-fns",
  "catalog-examples-eval/gatekeeper-imperative",
];

if (!available) {
  const why = `gatekeeper yardsticks: ${suitesScript}, ${library} or ${conformanceDir}/run.sh is absent`;
  if (process.env.CI === "true") {
    describe("gatekeeper yardsticks", () => {
      it("has ../shared (CI provides it)", () => {
        throw new Error(why);
      });
    });
  } else console.warn(`${why}: skipped`);
}

const run = promisify(execFile);

/**
 * Cases of general/ passing today, of 127 run (98.4%; the target is 95%, 121). Not yet: uniqueserviceselector (2:
 * comprehension bodies are not reordered for safety yet). httpsonly's template (a double-quoted scalar continued
 * at its key's indentation) is read by our YAML layer as yaml.v3 reads it.
 */
const MIN_SUITE_PASSING = 125;

describe.skipIf(!available)("gatekeeper builtin yardsticks (../shared)", () => {
  let cli = "";
  beforeAll(() => {
    cli = ensureBuiltCli();
  }, 180_000);

  it("passes every gatekeeper case of the -functions and -eval conformance groups with STRICT=1", async () => {
    const { stdout } = await run(
      "bash",
      [path.join(conformanceDir, "run.sh"), ...CASES.map((c) => path.join(conformanceDir, c))],
      {
        env: {
          ...process.env,
          STRICT: "1",
          RENDER_CMD: `${process.execPath} ${cli} render`,
          EVAL_CMD: `${process.execPath} ${cli} fn eval`,
        },
        maxBuffer: 16 * 2 ** 20,
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    const lines = stdout.split("\n").filter((l) => /^(EXACT|PASS|FAIL) /.test(l));
    expect(lines.length).toBe(CASES.length);
    expect(
      lines.filter((l) => l.startsWith("FAIL ")),
      stdout,
    ).toEqual([]);
  }, 300_000);

  it(`passes at least ${MIN_SUITE_PASSING} of the Gatekeeper library's general Rego cases (gatekeeper-suites.py)`, async () => {
    const { stdout } = await run("python3", [suitesScript, `${process.execPath} ${cli}`, library], {
      env: { ...process.env, BARS_JOBS: "2" },
      maxBuffer: 16 * 2 ** 20,
    });
    const counts = /^gatekeeper-suites: (\d+) passed, (\d+) failed, (\d+) skipped \(cel-only\)$/m.exec(
      stdout,
    );
    expect(counts, stdout).not.toBeNull();
    const [passed, failed] = [Number(counts![1]), Number(counts![2])];
    console.info(`gatekeeper-suites general: ${passed} passed, ${failed} failed`);
    expect(passed + failed).toBeGreaterThanOrEqual(120);
    expect(passed, stdout).toBeGreaterThanOrEqual(MIN_SUITE_PASSING);
  }, 600_000);
});
