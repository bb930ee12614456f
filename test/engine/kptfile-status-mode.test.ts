/**
 * `kptfileStatus: conditions`: the Kptfile status as kpt before 1.0.0-beta.62 reads it (no renderStatus),
 * checked against the installed kpt when there is one (1.0.0-beta.56 refuses renderStatus).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { renderPackage } from "../../src/engine/render.js";
import { createDefaultRuntime } from "../../src/runtimes/default.js";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array | undefined) => new TextDecoder().decode(b);
const runtime = createDefaultRuntime({ allowExec: false, useContainers: false });
const KPTFILE = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: app
pipeline:
  mutators:
    - image: ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2.0
      configMap:
        app: web
status:
  conditions:
    - type: Rendered
      status: "True"
      reason: RenderSuccess
  renderStatus:
    mutationSteps:
      - image: ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2.0
        exitCode: 0
`;
const CM = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n";
const kpt = spawnSync("kpt", ["version"], { encoding: "utf8" });
const kptVersion = kpt.status === 0 ? kpt.stdout.trim() : undefined;

async function render(mode: "full" | "conditions" | undefined) {
  const files = new Map([
    ["Kptfile", enc(KPTFILE)],
    ["cm.yaml", enc(CM)],
  ]);
  const result = await renderPackage({
    files,
    runtime,
    packageName: "app",
    ...(mode ? { kptfileStatus: mode } : {}),
  });
  return dec(result.files?.get("Kptfile"));
}

describe("Kptfile status modes", () => {
  it("full (default) writes renderStatus; conditions writes only the conditions and drops an old renderStatus", async () => {
    const full = parse(await render(undefined));
    expect(full.status.renderStatus.mutationSteps[0].results[0].message).toContain("set");
    const old = await render("conditions");
    const status = parse(old).status;
    expect(Object.keys(status)).toEqual(["conditions"]);
    expect(status.conditions).toEqual([{ type: "Rendered", status: "True", reason: "RenderSuccess" }]);
    expect(old).not.toContain("renderStatus");
  });

  it.skipIf(kptVersion === undefined)(
    "the installed kpt reads what each mode writes as its version allows",
    async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), "porchlight-status-"));
      try {
        writeFileSync(path.join(dir, "cm.yaml"), CM);
        writeFileSync(path.join(dir, "Kptfile"), await render("conditions"));
        // `kpt pkg tree` reads the Kptfile with kpt's strict decoder and runs nothing.
        expect(execFileSync("kpt", ["pkg", "tree", dir], { encoding: "utf8" })).toContain("Kptfile app");
        writeFileSync(path.join(dir, "Kptfile"), await render("full"));
        const withRenderStatus = spawnSync("kpt", ["fn", "render", dir], { encoding: "utf8" });
        const [, beta] = /1\.0\.0-beta\.(\d+)/.exec(kptVersion ?? "") ?? [];
        if (beta !== undefined && Number(beta) < 62)
          expect(withRenderStatus.stderr).toContain("field renderStatus not found in type v1.Status");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
