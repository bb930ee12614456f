/**
 * The shared `kpt pkg update` corpus (../shared/pkg-update, produced with a real kpt), run with its
 * runner against the built CLI. Target: at least 95% of the cases pass. Skipped, with a message,
 * without ../shared.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuiltCli, sharedDir } from "../helpers/built-cli.js";
import { providedByCi } from "../helpers/ci-provides.js";

const corpusDir = path.join(sharedDir, "pkg-update");
const available = providedByCi(
  "the kpt pkg update corpus",
  existsSync(path.join(corpusDir, "run.sh")),
  `${path.join(corpusDir, "run.sh")} is absent`,
);
if (!available) console.warn(`pkg-update corpus skipped: ${corpusDir}/run.sh is absent`);

describe.skipIf(!available)("kpt pkg update corpus (../shared/pkg-update)", () => {
  let cli = "";
  beforeAll(() => {
    cli = ensureBuiltCli();
  }, 180_000);

  it("passes at least 95% of the cases", async () => {
    const { stdout } = await promisify(execFile)("bash", [path.join(corpusDir, "run.sh")], {
      env: { ...process.env, UPDATE_CMD: `${process.execPath} ${cli} pkg update` },
      maxBuffer: 16 * 2 ** 20,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    const counts = /^(\d+) passed, (\d+) failed$/m.exec(stdout);
    const passed = Number(counts?.[1] ?? 0);
    const total = passed + Number(counts?.[2] ?? 0);
    const failures = stdout.split("\n").filter((l) => l.startsWith("FAIL "));
    console.info(`pkg-update corpus: ${passed}/${total} cases pass`);
    expect(total).toBeGreaterThanOrEqual(50);
    expect(passed / total, failures.join("\n")).toBeGreaterThanOrEqual(0.95);
  }, 300_000);
});
