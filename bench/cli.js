// Whole-process CLI runs, cold (a fresh process each, as users run it): `porchlight render --allow-exec
// <dir>` against `kpt fn render --allow-exec <dir>` on the same package with every step replaced by
// `exec: cat` on both sides (identical work). CPU time is user+sys of the process and its children
// (the `cat`s) and peak RSS its maximum resident set, from wait4's rusage to the microsecond
// (./rusage.py; GNU time's %U and %S, the fallback without python3, cut each to 10 ms). Wall time
// runs from the fork to the exit. Every run renders a fresh copy of the package; the last round's
// outputs are compared file by file (byte-identical with kpt or not).
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { deliberateReasons } from "./differences.js";
import { identityExecPackage, writeTree } from "./packages.js";
import { summary } from "./stats.js";

const GNU_TIME = "/usr/bin/time";
const KPT = "/usr/bin/kpt";

/** Why kpt is not measured, or undefined when it is installed. */
export function kptMissing() {
  if (!existsSync(KPT)) return `kpt is not installed at ${KPT}: the kpt columns are skipped`;
  return undefined;
}

const RUSAGE = fileURLToPath(new URL("./rusage.py", import.meta.url));

let rusageArgv;
/**
 * The command prefix that writes `maxrssKiB user sys [wall]` (seconds) of the command after it to
 * `file`: ./rusage.py under python3 (microseconds), else GNU time (10 ms), else none.
 */
function measuredBy(file) {
  rusageArgv ??=
    spawnSync("python3", ["-c", ""]).status === 0
      ? ["python3", RUSAGE]
      : existsSync(GNU_TIME)
        ? [GNU_TIME, "-f", "%M %U %S", "-o"]
        : [];
  return rusageArgv.length === 0 ? [] : [...rusageArgv, file];
}

/** How CPU time and peak RSS are measured, for the report: a sentence. */
export function cpuMeasure() {
  measuredBy("");
  if (rusageArgv[0] === "python3") return "wait4's rusage to the microsecond (bench/rusage.py)";
  if (rusageArgv.length > 0) return "GNU time (%U and %S cut to 10 ms each)";
  return "not measured (neither python3 nor GNU time is installed)";
}

/** Runs `argv` once in a fresh copy of `template`; returns `{ms, cpuMs, rssMiB}`. Throws when it fails. */
function runOnce(argv, template, work, keep) {
  const dir = path.join(work, "pkg");
  rmSync(dir, { recursive: true, force: true });
  cpSync(template, dir, { recursive: true });
  const rssFile = path.join(work, "rss");
  rmSync(rssFile, { force: true });
  const withTime = [...measuredBy(rssFile), ...argv];
  const start = performance.now();
  const res = spawnSync(withTime[0], [...withTime.slice(1), dir], { encoding: "utf8", cwd: work });
  const outside = performance.now() - start;
  if (res.status !== 0) {
    // The fresh copy's temporary path is the machine's, not the package's: named as PKG_PATH.
    const said = `${res.stderr}${res.stdout}`.split(dir).join("PKG_PATH");
    throw new Error(`bench: ${argv.join(" ")} failed (${res.status}):\n${said}`);
  }
  const [rssKiB, user, sys, wall] = existsSync(rssFile)
    ? readFileSync(rssFile, "utf8").trim().split("\n").pop().split(" ").map(Number)
    : [Number.NaN, Number.NaN, Number.NaN, undefined];
  // The wrapper's own start (python3's) is not the command's.
  const ms = wall === undefined ? outside : wall * 1000;
  if (keep) {
    rmSync(keep, { recursive: true, force: true });
    renameSync(dir, keep);
  }
  return { ms, cpuMs: (user + sys) * 1000, rssMiB: rssKiB / 1024 };
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
      writeTree(ours, identityExecPackage(p.files));
      return {
        p,
        ours,
        s: { ms: [], cpu: [], rss: [], kms: [], kcpu: [], krss: [], speedup: [], cpuSpeedup: [] },
      };
    });
    const porchlight = [process.execPath, porchlightBin, "render", "--allow-exec"];
    const kpt = [KPT, "fn", "render", "--allow-exec", "--truncate-output=false"];
    for (let round = 0; round < rounds; round++) {
      for (const c of cases) {
        if (c.error) continue;
        try {
          measureRound(c, round);
        } catch (err) {
          // Recorded, not fatal: e.g. an older kpt that cannot read a Kptfile a newer kpt wrote.
          c.error = String(err.message ?? err)
            .split("\n")
            .slice(0, 5)
            .join(" ")
            .replace(/\s+/g, " ");
        }
      }
    }
    function measureRound(c, round) {
      {
        const ourFirst = round % 2 === 0;
        const last = round === rounds - 1;
        const oursOut = last ? path.join(work, "out-ours") : undefined;
        const kptOut = last ? path.join(work, "out-kpt") : undefined;
        const a = ourFirst ? runOnce(porchlight, c.ours, work, oursOut) : undefined;
        const k = withKpt ? runOnce(kpt, c.ours, work, kptOut) : undefined;
        const b = a ?? runOnce(porchlight, c.ours, work, oursOut);
        c.s.ms.push(b.ms);
        c.s.cpu.push(b.cpuMs);
        c.s.rss.push(b.rssMiB);
        if (k) {
          c.s.kms.push(k.ms);
          c.s.kcpu.push(k.cpuMs);
          c.s.krss.push(k.rssMiB);
          c.s.speedup.push(k.ms / b.ms);
          c.s.cpuSpeedup.push(k.cpuMs / b.cpuMs);
        }
        if (last && withKpt) c.differences = differingFiles(oursOut, kptOut, c.ours);
      }
    }
    return cases.map((c) => ({
      name: c.p.name,
      resources: c.p.resources,
      porchlight: { ms: summary(c.s.ms), cpuMs: summary(c.s.cpu), rssMiB: summary(c.s.rss) },
      kpt: withKpt
        ? { ms: summary(c.s.kms), cpuMs: summary(c.s.kcpu), rssMiB: summary(c.s.krss) }
        : undefined,
      speedup: withKpt ? summary(c.s.speedup) : undefined,
      cpuSpeedup: withKpt ? summary(c.s.cpuSpeedup) : undefined,
      differences: c.differences,
      error: c.error,
    }));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function listFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(path.relative(root, full));
    }
  };
  walk(root);
  return out;
}

const readText = (file) => (existsSync(file) ? readFileSync(file, "utf8") : undefined);

/**
 * The files whose bytes differ between two rendered trees (or that only one has), each as
 * `{file, reasons}`: `reasons` lists the deliberate differences that explain it (./differences.js),
 * undefined when they do not. `source` is the package before the render.
 */
function differingFiles(ours, kpt, source) {
  const files = [...new Set([...listFiles(ours), ...listFiles(kpt)])].sort();
  return files
    .filter((f) => {
      const x = path.join(ours, f);
      const y = path.join(kpt, f);
      return !existsSync(x) || !existsSync(y) || !readFileSync(x).equals(readFileSync(y));
    })
    .map((file) => ({
      file,
      reasons: deliberateReasons(
        file,
        readText(path.join(ours, file)),
        readText(path.join(kpt, file)),
        readText(path.join(source, file)),
      ),
    }));
}
