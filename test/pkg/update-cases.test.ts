/**
 * porchlight's own `pkg update` cases (test/fixtures/pkg-update, expected outputs recorded with kpt
 * 1.0.0-beta.56), run in memory: the upstream is held in memory, so only git is left out.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readTree } from "../../src/pkg/disk.js";
import type { FileTree } from "../../src/pkg/files.js";
import { defaultMergeSchemas } from "../../src/pkg/merge3/default-schemas.js";
import { UpdateError, updatePackage } from "../../src/pkg/update.js";
import { repoRoot } from "../helpers/built-cli.js";
import { MemoryUpstream, texts } from "./helpers.js";

const casesDir = path.join(repoRoot, "test/fixtures/pkg-update");
const cases = readdirSync(casesDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

async function dirTree(dir: string, prefix = ""): Promise<FileTree> {
  if (!existsSync(dir)) return new Map();
  const t = await readTree(dir);
  return new Map([...t].map(([k, v]) => [prefix ? `${prefix}/${k}` : k, v]));
}

describe("pkg update on porchlight's own cases (expected outputs from kpt)", () => {
  it("has cases", () => expect(cases.length).toBeGreaterThanOrEqual(15));

  for (const name of cases) {
    it(`${name}: the package equals what kpt left`, async () => {
      const dir = path.join(casesDir, name);
      const config = parse(readFileSync(path.join(dir, "config.yaml"), "utf8")) as {
        strategy?: string | null;
        exitCode: number;
      };
      const upstream = new MemoryUpstream({
        v1: { commit: "__OLD_COMMIT__", files: await dirTree(path.join(dir, "upstream-old"), "pkg") },
        v2: { commit: "__NEW_COMMIT__", files: await dirTree(path.join(dir, "upstream-new"), "pkg") },
      });
      let files: FileTree;
      try {
        files = (
          await updatePackage({
            files: await dirTree(path.join(dir, "local")),
            name: "mypkg",
            ref: "v2",
            strategy: config.strategy || undefined,
            fetcher: upstream,
            schemas: defaultMergeSchemas(),
          })
        ).files;
        expect(config.exitCode).toBe(0);
      } catch (err) {
        if (!(err instanceof UpdateError)) throw err;
        expect(config.exitCode, err.message).not.toBe(0);
        files = err.files;
      }
      expect(texts(files)).toEqual(texts(await dirTree(path.join(dir, "expected"))));
    });
  }
});
