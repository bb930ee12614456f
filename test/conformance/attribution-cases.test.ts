/**
 * The `*-functions` conformance cases whose expected files differ from porchlight's output only in the
 * attribution of generated resources (enable-gcp-services, generate-folders): their diff.patch was
 * recorded by a kpt older than 1.0.0-beta.59, which wrote `cnrm.cloud.google.com/blueprint: 'kpt-fn'`;
 * kpt 1.0 writes `krm-fn`, as porchlight does. With that one value written back as the recording has
 * it (after the render, by the render command the runner is given), each case passes with STRICT=1 —
 * so nothing else differs. Fails (never skips) in CI without ../shared.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuiltCli, sharedDir } from "../helpers/built-cli.js";

const conformanceDir = path.join(sharedDir, "conformance");
const available = existsSync(path.join(conformanceDir, "run.sh"));
if (!available && process.env.CI !== "true")
  console.warn(`attribution cases skipped: ${conformanceDir} is absent`);

const GROUPS = ["kpt-fn-render-functions", "catalog-examples-functions", "catalog-tests-functions"];
const ATTRIBUTING = /\bimage:\s*["']?\S*\/(enable-gcp-services|generate-folders)[:@]/;

function caseDirs(dir: string): string[] {
  if (existsSync(path.join(dir, ".expected"))) return [dir];
  return readdirSync(dir)
    .filter((name) => !name.startsWith("."))
    .map((name) => path.join(dir, name))
    .filter((p) => statSync(p).isDirectory())
    .flatMap(caseDirs);
}

const cases = available
  ? GROUPS.flatMap((g) => caseDirs(path.join(conformanceDir, g))).filter((dir) =>
      ATTRIBUTING.test(readFileSync(path.join(dir, "Kptfile"), "utf8")),
    )
  : [];

/** The render command given to run.sh: porchlight render, then the recorded attribution value. */
const WRAPPER = `#!/usr/bin/env bash
"$PORCHLIGHT_NODE" "$PORCHLIGHT_CLI" render "$@"; rc=$?
dirs=(); for a in "$@"; do [ -d "$a" ] && dirs+=("$a"); done
[ \${#dirs[@]} -eq 0 ] && dirs=(.)
grep -rlZ "cnrm.cloud.google.com/blueprint: 'krm-fn'" "\${dirs[@]}" | xargs -0r sed -i "s/cnrm.cloud.google.com\\/blueprint: 'krm-fn'/cnrm.cloud.google.com\\/blueprint: 'kpt-fn'/"
exit $rc
`;

describe.skipIf(!available && process.env.CI !== "true")(
  "conformance: cases recorded with kpt-fn attribution",
  () => {
    let cli = "";
    let work = "";
    beforeAll(async () => {
      cli = ensureBuiltCli();
      work = await mkdtemp(path.join(tmpdir(), "porchlight-attribution-"));
      await writeFile(path.join(work, "render.sh"), WRAPPER, { mode: 0o755 });
    }, 180_000);
    afterAll(() => rm(work, { recursive: true, force: true }));

    it("finds them (enable-gcp-services and generate-folders cases)", () => {
      expect(available, `${conformanceDir}/run.sh is absent`).toBe(true);
      expect(cases.length).toBeGreaterThanOrEqual(4);
    });

    it("all pass with STRICT=1 once the attribution is written as recorded", async () => {
      const { stdout } = await promisify(execFile)("bash", [path.join(conformanceDir, "run.sh"), ...cases], {
        env: {
          ...process.env,
          STRICT: "1",
          RENDER_CMD: path.join(work, "render.sh"),
          PORCHLIGHT_NODE: process.execPath,
          PORCHLIGHT_CLI: cli,
        },
        maxBuffer: 16 * 2 ** 20,
      }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
      const lines = stdout.split("\n").filter((l) => /^(EXACT|PASS|FAIL) /.test(l));
      expect(lines.length).toBe(cases.length);
      expect(lines.filter((l) => l.startsWith("FAIL ")).join("\n")).toBe("");
    }, 300_000);
  },
);
