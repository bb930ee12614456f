/**
 * The package context as kpt's gen-pkg-context writes it: `pkg get --for-deployment` (bytes as
 * kpt 1.0.0-beta.56 writes them for the same upstream), and Porch's `data.package-path`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runGet } from "../../src/cli/pkg.js";
import { generatePackageContext } from "../../src/pkg/package-context.js";
import { git, writeFiles } from "./git.js";

let work: string;
beforeEach(() => {
  work = mkdtempSync(path.join(tmpdir(), "porchlight-ctx-"));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const BLUEPRINT_CONTEXT = `apiVersion: v1
kind: ConfigMap
metadata:
  name: kptfile.kpt.dev
  annotations:
    config.kubernetes.io/local-config: "true"
data:
  name: example
  region: x
`;

describe("package context", () => {
  it("pkg get --for-deployment writes data.name of the new package, replacing the blueprint's context (as kpt)", async () => {
    const dir = path.join(work, "up");
    mkdirSync(dir);
    git(dir, "init", "-q");
    writeFiles(dir, {
      "base/Kptfile": "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: base\n",
      "base/package-context.yaml": BLUEPRINT_CONTEXT,
      "base/ns.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: example\n",
    });
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "v1");
    const err: string[] = [];
    const io = { stdout: () => {}, stderr: (t: string) => err.push(t), cwd: work };
    expect(await runGet([`${dir}/.git/base@main`, "east", "--for-deployment"], io)).toBe(0);
    // What kpt 1.0.0-beta.56 writes for `kpt pkg get <same>/.git/base@main east --for-deployment`.
    expect(readFileSync(path.join(work, "east/package-context.yaml"), "utf8")).toBe(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kptfile.kpt.dev\n  annotations:\n    config.kubernetes.io/local-config: "true"\ndata:\n  name: east\n',
    );
    expect(err.join("")).toContain("Customized package for deployment.");
    // Without the flag the blueprint's context is kept (with kpt's merge identity, as every resource).
    expect(await runGet([`${dir}/.git/base@main`, "west"], io)).toBe(0);
    const kept = readFileSync(path.join(work, "west/package-context.yaml"), "utf8");
    expect(kept).toContain("name: example\n  region: x\n");
  });

  it("adds Porch's data.package-path when given", () => {
    const files = new Map([
      ["Kptfile", Buffer.from("apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\n")],
    ]);
    const out = generatePackageContext(files, { packagePath: "east/app" });
    expect(out.get("package-context.yaml")?.toString()).toBe(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kptfile.kpt.dev\n  annotations:\n    config.kubernetes.io/local-config: "true"\ndata:\n  name: app\n  package-path: east/app\n',
    );
    expect(files.has("package-context.yaml"), "the input is not changed").toBe(false);
  });
});
