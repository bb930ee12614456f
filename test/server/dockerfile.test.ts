/**
 * The production image (no Docker daemon here, so the Dockerfile is checked as text): its base is a Node
 * LTS line that is still supported, and its build stage copies everything `npm run build` reads (the
 * build script's files, the tsconfig it extends, the sources it includes) — a file the build needs and the
 * image lacks only shows when someone builds the image.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SHUTDOWN_ABORT_MS, DEFAULT_SHUTDOWN_GRACE_MS } from "../../src/server/shutdown.js";
import { repoRoot } from "../helpers/built-cli.js";

const dockerfile = readFileSync(path.join(repoRoot, "Dockerfile"), "utf8");
const lines = dockerfile
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith("#"));

/** End of life of Node's LTS lines (nodejs.org/en/about/previous-releases). */
const LTS_END_OF_LIFE: Record<number, string> = {
  20: "2026-04-30",
  22: "2027-04-30",
  24: "2028-04-30",
  26: "2029-04-30",
};

/** The instructions of the first stage, up to its `RUN npm run build`. */
function buildStage(): string[] {
  const end = lines.findIndex((l) => /^RUN .*npm run build/.test(l));
  expect(end).toBeGreaterThan(0);
  return lines.slice(0, end);
}

/** Paths `COPY`ed into the stage (sources, relative to the build context). */
function copied(stage: string[]): string[] {
  return stage
    .filter((l) => l.startsWith("COPY ") && !l.includes("--from="))
    .flatMap((l) => l.split(/\s+/).slice(1, -1))
    .map((p) => p.replace(/^\.\//, "").replace(/\/$/, ""));
}

describe("Dockerfile", () => {
  it("builds on a Node LTS line that is still supported", () => {
    const bases = lines.filter((l) => l.startsWith("FROM ")).map((l) => /^FROM node:(\d+)/.exec(l)?.[1]);
    expect(bases.length).toBeGreaterThan(0);
    for (const major of bases) {
      const eol = LTS_END_OF_LIFE[Number(major)];
      expect(eol, `node:${major} is not an LTS line`).toBeDefined();
      expect(Date.parse(eol as string), `node:${major} reached its end of life on ${eol}`).toBeGreaterThan(
        Date.now(),
      );
    }
  });

  it("copies into its build stage every file npm run build reads", () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));
    const build: string = pkg.scripts.build;
    const needed = build
      .split(/\s+/)
      .filter((t) => /\.(json|js|mjs|cjs|ts)$/.test(t) || (t.includes("/") && !t.startsWith("-")));
    for (const config of needed.filter((t) => t.endsWith(".json"))) {
      const tsconfig = JSON.parse(readFileSync(path.join(repoRoot, config), "utf8"));
      if (tsconfig.extends) needed.push(tsconfig.extends);
      needed.push(...(tsconfig.include ?? []));
    }
    expect(needed).toContain("src");
    const sources = copied(buildStage());
    const missing = needed
      .map((p) => p.replace(/^\.\//, ""))
      .filter((p) => !sources.some((s) => p === s || p.startsWith(`${s}/`)));
    expect(missing).toEqual([]);
  });

  /** The instructions of the last stage (the image that runs). */
  const runStage = (): string[] => lines.slice(lines.findLastIndex((l) => l.startsWith("FROM ")));
  /** The image's environment (`ENV K=V ...`, with line continuations joined). */
  const env = (): Record<string, string> => {
    const joined = dockerfile.replace(/\\\n\s*/g, " ");
    const vars: Record<string, string> = {};
    for (const line of joined.split("\n").filter((l) => l.startsWith("ENV "))) {
      for (const m of line.slice(4).matchAll(/([A-Z_]+)=(\S+)/g)) vars[m[1] as string] = m[2] as string;
    }
    return vars;
  };

  it("runs as a numeric non-root user under an init from the distribution", () => {
    const user = runStage().filter((l) => l.startsWith("USER "));
    expect(user).toHaveLength(1);
    expect(user[0]).toMatch(/^USER [1-9]\d*(:[1-9]\d*)?$/);
    expect(dockerfile).toMatch(/apt-get install -y --no-install-recommends tini/);
    expect(runStage()).toContain('ENTRYPOINT ["/usr/bin/tini", "--"]');
    expect(runStage().filter((l) => l.startsWith("HEALTHCHECK")).length).toBe(1);
    expect(dockerfile).toMatch(/\/healthz/);
  });

  it("logs JSON lines by default and shuts down inside Kubernetes' default 30 s", () => {
    const vars = env();
    expect(vars.LOG_FORMAT).toBe("json");
    const grace = Number(vars.PORCHLIGHT_SHUTDOWN_GRACE_MS ?? DEFAULT_SHUTDOWN_GRACE_MS);
    expect(grace).toBe(DEFAULT_SHUTDOWN_GRACE_MS);
    expect(grace + DEFAULT_SHUTDOWN_ABORT_MS).toBeLessThanOrEqual(25_000);
  });

  it("has a .dockerignore that leaves out what the image never needs, and nothing it copies", () => {
    const ignored = readFileSync(path.join(repoRoot, ".dockerignore"), "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#") && !l.startsWith("!"));
    for (const p of [".git", "node_modules", "dist", "test"]) expect(ignored).toContain(p);
    const copiedPaths = lines
      .filter((l) => l.startsWith("COPY ") && !l.includes("--from="))
      .flatMap((l) => l.split(/\s+/).slice(1, -1))
      .map((p) => p.replace(/^\.\//, "").replace(/\/$/, ""));
    for (const p of copiedPaths) expect(ignored, p).not.toContain(p);
  });
});
