/**
 * Test helpers for the engine: our own fixture packages (test/fixtures/packages) as PackageFiles,
 * and a small test runtime (a legitimate test double of a FunctionRuntime):
 * - `test/add-label`: sets every functionConfig `data` pair as a label on every item;
 * - `test/fail`: exits 1 with stderr and an error result;
 * - `test/drop-comments`: removes every comment from the items (kpt restores them);
 * - anything else: "not mine" (undefined).
 */
import path from "node:path";
import { isMap, isScalar, visit, YAMLMap } from "yaml";
import { readPackageDir } from "../../src/cli/package-dir.js";
import type { FunctionResult, KrmResource } from "../../src/krm/resource-list.js";
import type { FunctionRunRequest, FunctionRuntime } from "../../src/runtimes/runtime.js";

export const fixturesDir = path.resolve(import.meta.dirname, "../fixtures/packages");

/** A fixture package as PackageFiles. */
export function loadFixture(name: string): Promise<Map<string, Uint8Array>> {
  return readPackageDir(path.join(fixturesDir, name));
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** A file of a PackageFiles map as text (undefined when absent). */
export function fileText(
  files: ReadonlyMap<string, Uint8Array> | undefined,
  rel: string,
): string | undefined {
  const bytes = files?.get(rel);
  return bytes === undefined ? undefined : decoder.decode(bytes);
}

/** A copy of `files` with `rel` replaced by `text`. */
export function withFile(
  files: ReadonlyMap<string, Uint8Array>,
  rel: string,
  text: string,
): Map<string, Uint8Array> {
  const copy = new Map(files);
  copy.set(rel, encoder.encode(text));
  return copy;
}

function configData(config: KrmResource | undefined): Array<[string, string]> {
  const data = config?.get("data", true);
  if (!isMap(data)) return [];
  return data.items.map((p) => [
    String(isScalar(p.key) ? p.key.value : p.key),
    String(isScalar(p.value) ? p.value.value : p.value),
  ]);
}

/** Every request the runtime saw (for assertions on inputs). */
export interface RecordingRuntime extends FunctionRuntime {
  calls: FunctionRunRequest[];
}

/** The test runtime described above. */
export function testRuntime(): RecordingRuntime {
  const calls: FunctionRunRequest[] = [];
  return {
    name: "test",
    calls,
    async run(request) {
      calls.push(request);
      const image = request.fn.image ?? "";
      const items = request.input.items;
      if (image.includes("add-label")) {
        const pairs = configData(request.input.functionConfig);
        for (const item of items) {
          let meta = item.get("metadata", true);
          if (!isMap(meta)) {
            meta = new YAMLMap();
            item.set("metadata", meta);
          }
          for (const [key, value] of pairs) item.setIn(["metadata", "labels", key], value);
        }
        const results: FunctionResult[] = [
          { message: `set ${pairs.length * items.length} labels`, severity: "info" },
        ];
        return { exitCode: 0, stderr: "", output: { items, results } };
      }
      if (image.includes("fail")) {
        return {
          exitCode: 1,
          stderr: "boom\n",
          output: { items, results: [{ message: "it failed", severity: "error" }] },
        };
      }
      if (image.includes("drop-comments")) {
        for (const item of items) {
          item.commentBefore = null;
          item.comment = null;
          visit(item, {
            Node(_k, node) {
              node.commentBefore = undefined;
              node.comment = undefined;
            },
          });
        }
        return { exitCode: 0, stderr: "", output: { items, results: [] } };
      }
      return undefined;
    },
  };
}
