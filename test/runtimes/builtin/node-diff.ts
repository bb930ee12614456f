/**
 * The differential check of a builtin's node form: `run` on Documents (nodeToDocument of the read
 * nodes) against `runNodes` on the nodes themselves — per item the Document written by
 * `writeDocument` and the node by `printDocument` must be the same bytes, the items the same (order,
 * identity), the results, exit code and stderr equal. Inputs: the ../shared/conformance cases (and
 * ../shared/real-packages packages) whose pipeline runs the function, and fixtures given as YAML text.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Document, parse } from "yaml";
import { configMapConfig } from "../../../src/engine/function-config.js";
import type { KrmResource } from "../../../src/krm/resource-list.js";
import type { BuiltinFunction } from "../../../src/runtimes/builtin/builtin-function.js";
import { setStringNode } from "../../../src/runtimes/builtin/node-fields.js";
import { writeDocument } from "../../../src/yaml/from-document.js";
import { printDocument, readYamlStream, type SeqIndent, type YNode } from "../../../src/yaml/index.js";
import { nodeToDocument } from "../../../src/yaml/to-document.js";
import { sharedDir } from "../../helpers/built-cli.js";

const conformanceDir = path.join(sharedDir, "conformance");
const realPackagesDir = path.join(sharedDir, "real-packages");

/** Whether ../shared/conformance is here; throws under CI=true when it is not. */
export const conformanceAvailable = ((): boolean => {
  const ok = existsSync(conformanceDir);
  if (!ok && process.env.CI === "true") throw new Error(`../shared is missing (${conformanceDir})`);
  if (!ok) console.warn("node-form differential cases of ../shared/conformance skipped: ../shared is absent");
  return ok;
})();

/** One input of the check: the package's files (path -> text) and the step's functionConfig. */
export interface DiffCase {
  name: string;
  files: Array<[string, string]>;
  functionConfig?: () => KrmResource | undefined;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith(".")) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

interface Step {
  image?: string;
  configMap?: Record<string, string>;
  config?: unknown;
  configPath?: string;
}

/** The steps of every Kptfile of ../shared/conformance (and real-packages) that run `fnName`, as cases. */
export function conformanceCases(fnName: string): DiffCase[] {
  if (!conformanceAvailable) return [];
  const cases: DiffCase[] = [];
  const roots = [conformanceDir, ...(existsSync(realPackagesDir) ? [realPackagesDir] : [])];
  for (const file of roots.flatMap((r) => walk(r))) {
    if (path.basename(file) !== "Kptfile") continue;
    let kptfile: { pipeline?: { mutators?: Step[]; validators?: Step[] } };
    try {
      kptfile = parse(readFileSync(file, "utf8")) ?? {};
    } catch {
      continue;
    }
    const steps = [...(kptfile.pipeline?.mutators ?? []), ...(kptfile.pipeline?.validators ?? [])];
    const dir = path.dirname(file);
    const files = walk(dir)
      .filter((p) => /\.ya?ml$/.test(p) || path.basename(p) === "Kptfile")
      .map((p): [string, string] => [path.relative(dir, p), readFileSync(p, "utf8")]);
    steps.forEach((step, i) => {
      const image = step.image ?? "";
      const name = image.split("/").pop()?.split(/[:@]/)[0];
      if (name !== fnName) return;
      cases.push({
        name: `${path.relative(sharedDir, dir)} step ${i}`,
        files,
        functionConfig: () => stepConfig(step, dir),
      });
    });
  }
  return cases;
}

function stepConfig(step: Step, dir: string): KrmResource | undefined {
  if (step.configMap) return configMapConfig(step.configMap);
  if (step.config) return new Document(step.config);
  if (step.configPath === undefined) return undefined;
  const p = path.join(dir, step.configPath);
  if (!existsSync(p)) return undefined;
  const first = readYamlStream(readFileSync(p, "utf8"))[0];
  return first ? nodeToDocument(first.node) : undefined;
}

interface Item {
  node: YNode;
  seqIndent: SeqIndent;
}

/** The package's documents as the engine hands them to a function (path and index annotations added). */
function readItems(files: ReadonlyArray<[string, string]>): Item[] | undefined {
  const items: Item[] = [];
  for (const [file, text] of files) {
    let docs: ReturnType<typeof readYamlStream>;
    try {
      docs = readYamlStream(text);
    } catch {
      return undefined;
    }
    for (const d of docs) {
      const annotations: Array<[string, string]> = [
        ["config.kubernetes.io/index", String(d.index)],
        ["config.kubernetes.io/path", file],
        ["internal.config.kubernetes.io/index", String(d.index)],
        ["internal.config.kubernetes.io/path", file],
      ];
      for (const [key, value] of annotations) setStringNode(d.node, ["metadata", "annotations", key], value);
      items.push({ node: d.node, seqIndent: d.seqIndent });
    }
  }
  return items;
}

/**
 * Runs `fn` both ways on the files and asserts the same outcome; returns the printed items (for
 * tests that also check what was written). Returns undefined when the files are not valid YAML.
 */
export async function expectSameBothWays(
  fn: BuiltinFunction,
  files: ReadonlyArray<[string, string]>,
  functionConfig: () => KrmResource | undefined,
): Promise<string[] | undefined> {
  const forDocs = readItems(files);
  const forNodes = readItems(files);
  if (!forDocs || !forNodes) return undefined;
  if (!fn.runNodes) throw new Error(`${fn.name} has no runNodes`);
  const docs = forDocs.map((i) => nodeToDocument(i.node));
  const nodes = forNodes.map((i) => i.node);
  const byDoc = await fn.run({ items: docs, functionConfig: functionConfig(), results: [] });
  const byNode = await fn.runNodes({ items: nodes, functionConfig: functionConfig(), results: [] });
  expect(byNode.results).toEqual(byDoc.results);
  expect(byNode.exitCode).toBe(byDoc.exitCode);
  expect(byNode.stderr).toBe(byDoc.stderr);
  expect(byNode.items.length).toBe(byDoc.items.length);
  const printed: string[] = [];
  byDoc.items.forEach((doc, i) => {
    const j = docs.indexOf(doc);
    // The same items in the same order, kept objects where the Document form keeps them.
    expect(nodes.indexOf(byNode.items[i])).toBe(j);
    const seq = forDocs[j]?.seqIndent ?? "compact";
    const expected = writeDocument(doc as Document, seq === "compact");
    expect(printDocument(byNode.items[i], seq)).toBe(expected);
    printed.push(expected);
  });
  return printed;
}

/** A fixture: YAML text of one file (`resources.yaml`). */
export function fixture(text: string): Array<[string, string]> {
  return [["resources.yaml", text]];
}

/** The differential check of `fn` on every shared step that runs it (at least `min` of them). */
export function describeSharedCases(fn: BuiltinFunction, min: number): void {
  const cases = conformanceCases(fn.name);
  describe.skipIf(!conformanceAvailable)(`${fn.name} runNodes on ../shared`, () => {
    it("finds the function's cases", () => {
      expect(cases.length).toBeGreaterThanOrEqual(min);
    });
    it.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
      await expectSameBothWays(fn, c.files, c.functionConfig ?? (() => undefined));
    });
  });
}
