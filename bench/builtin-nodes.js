// The builtins' two forms on the same items: `run` on yaml Documents against `runNodes` on our YAML
// layer's nodes, over the 1,000 Deployments of generatedPackage(1000) (bench/packages.js), each step
// with its config from that package's pipeline. Conversions are outside the timing: every round
// reads the files afresh, converts the Document form's copy, then times the function call alone.
// The two forms alternate; the figures are the median and the minimum of the rounds (ms), after two
// warm-up rounds (the minimum is the steadier one on a loaded machine).
// Usage: npm run build && node bench/builtin-nodes.js [rounds]   (prints a JSON summary)
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generatedPackage } from "./packages.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const load = (p) => import(pathToFileURL(path.join(repoRoot, "dist/src", p)).href);

const { readYamlStream } = await load("yaml/index.js");
const { nodeToDocument } = await load("yaml/to-document.js");
const { configMapConfig } = await load("engine/function-config.js");
const builtins = {
  "set-namespace": [(await load("runtimes/builtin/set-namespace.js")).setNamespace, { namespace: "bench" }],
  "set-labels": [(await load("runtimes/builtin/set-labels.js")).setLabels, { team: "bench" }],
  "apply-setters": [
    (await load("runtimes/builtin/apply-setters.js")).applySetters,
    { replicas: "3", image: "nginx:1.28" },
  ],
  "set-annotations": [(await load("runtimes/builtin/set-annotations.js")).setAnnotations, { owner: "bench" }],
  "set-image": [
    (await load("runtimes/builtin/set-image.js")).setImage,
    { name: "nginx", newName: "registry.example/nginx", newTag: "1.29" },
  ],
};

const decoder = new TextDecoder();
const texts = [...generatedPackage(1000).files.values()].map((b) => decoder.decode(b));
const read = () => texts.flatMap((t) => readYamlStream(t).map((d) => d.node));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const rounds = Number(process.argv[2] ?? 15);
const summary = { items: read().length, rounds, ms: {} };
for (const [name, [fn, data]] of Object.entries(builtins)) {
  if (!fn?.runNodes) continue;
  const times = { run: [], runNodes: [] };
  for (let r = 0; r < rounds + 2; r++) {
    const docs = read().map(nodeToDocument);
    globalThis.gc?.();
    let t = performance.now();
    fn.run({ items: docs, functionConfig: configMapConfig(data), results: [] });
    const run = performance.now() - t;
    const nodes = read();
    globalThis.gc?.();
    t = performance.now();
    fn.runNodes({ items: nodes, functionConfig: configMapConfig(data), results: [] });
    const runNodes = performance.now() - t;
    if (r >= 2) {
      times.run.push(run);
      times.runNodes.push(runNodes);
    }
  }
  const figures = (f) => {
    const a = f(times.run);
    const b = f(times.runNodes);
    return { run: +a.toFixed(1), runNodes: +b.toFixed(1), speedup: +(a / b).toFixed(1) };
  };
  summary.ms[name] = { median: figures(median), min: figures((xs) => Math.min(...xs)) };
}
console.log(JSON.stringify(summary, null, 2));
