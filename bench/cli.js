// Whole-process CLI runs: `porchlight render <dir>` against `kpt fn render <dir> --allow-exec` on the
// same package with every step replaced by `exec: cat` (kpt's own floor). Wall time is measured around
// the process; peak RSS is the process's maximum resident set as GNU time reports it (%M, from
// wait4's rusage), not heap growth. Every run renders a fresh copy of the package.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { identityExecPackage, writeTree } from "./packages.js";
import { summary } from "./stats.js";

const GNU_TIME = "/usr/bin/time";
const KPT = "/usr/bin/kpt";

/** Why kpt is not measured, or undefined when it is installed. */
export function kptMissing() {
  if (!existsSync(KPT)) return `kpt is not installed at ${KPT}: the kpt columns are skipped`;
  return undefined;
}

function rssMissing() {
  return existsSync(GNU_TIME) ? undefined : `${GNU_TIME} is absent: peak RSS is not measured`;
}

/** Runs `argv` once in a fresh copy of `template`; returns `{ms, rssMiB}`. Throws when it fails. */
function runOnce(argv, template, work) {
  const dir = path.join(work, "pkg");
  rmSync(dir, { recursive: true, force: true });
  cpSync(template, dir, { recursive: true });
  const rssFile = path.join(work, "rss");
  rmSync(rssFile, { force: true });
  const withTime = rssMissing() ? argv : [GNU_TIME, "-f", "%M", "-o", rssFile, ...argv];
  const start = performance.now();
  const res = spawnSync(withTime[0], [...withTime.slice(1), dir], { encoding: "utf8", cwd: work });
  const ms = performance.now() - start;
  if (res.status !== 0) {
    throw new Error(`bench: ${argv.join(" ")} failed (${res.status}):\n${res.stderr}${res.stdout}`);
  }
  const rssKiB = existsSync(rssFile)
    ? Number.parseInt(readFileSync(rssFile, "utf8").trim().split("\n").pop(), 10)
    : Number.NaN;
  return { ms, rssMiB: rssKiB / 1024 };
}

/**
 * Measures each package (`{name, files}`) in `rounds` interleaved rounds: porchlight and kpt alternate
 * which goes first. Returns `{name, porchlight: {ms, rss}, kpt?: {ms, rss}, speedup}` (summaries;
 * speedup = kpt ms / porchlight ms of the same round).
 */
export function measureCli({ packages, rounds, porchlightBin }) {
  const work = mkdtempSync(path.join(os.tmpdir(), "porchlight-bench-"));
  const withKpt = kptMissing() === undefined;
  try {
    const cases = packages.map((p, i) => {
      const ours = path.join(work, `ours-${i}`);
      writeTree(ours, p.files);
      const theirs = path.join(work, `kpt-${i}`);
      if (withKpt) writeTree(theirs, identityExecPackage(p.files));
      return { p, ours, theirs, s: { ms: [], rss: [], kms: [], krss: [], speedup: [] } };
    });
    const porchlight = [process.execPath, porchlightBin, "render"];
    const kpt = [KPT, "fn", "render", "--allow-exec", "--truncate-output=false"];
    for (let round = 0; round < rounds; round++) {
      for (const c of cases) {
        const ourFirst = round % 2 === 0;
        const a = ourFirst ? runOnce(porchlight, c.ours, work) : undefined;
        const k = withKpt ? runOnce(kpt, c.theirs, work) : undefined;
        const b = a ?? runOnce(porchlight, c.ours, work);
        c.s.ms.push(b.ms);
        c.s.rss.push(b.rssMiB);
        if (k) {
          c.s.kms.push(k.ms);
          c.s.krss.push(k.rssMiB);
          c.s.speedup.push(k.ms / b.ms);
        }
      }
    }
    return cases.map((c) => ({
      name: c.p.name,
      resources: c.p.resources,
      porchlight: { ms: summary(c.s.ms), rssMiB: summary(c.s.rss) },
      kpt: withKpt ? { ms: summary(c.s.kms), rssMiB: summary(c.s.krss) } : undefined,
      speedup: withKpt ? summary(c.s.speedup) : undefined,
    }));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
