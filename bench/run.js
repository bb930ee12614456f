// Render benchmarks: `npm run bench` (after `npm run build`). Prints one line per scenario with the
// median wall time (ms) over the runs and the heap growth (MiB) of the process, so speed and memory
// goals are checked here, not in timed tests. Scenarios: a generated package of 2,000 resources in
// 40 files under a three-function pipeline, a generated tree of 50 subpackages, and (when ../shared
// is beside the checkout) every builtin-renderable real package from ../shared/real-packages.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { renderPackage } from "../dist/src/engine/render.js";
import { createDefaultRuntime } from "../dist/src/runtimes/default.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const encoder = new TextEncoder();
const runtime = createDefaultRuntime({ allowExec: false });

/** Goals a render must meet on this machine (2 cores): median ms per scenario. */
const goals = {
  "generated-2000-resources": 2000,
  "generated-50-subpackages": 1500,
  "real-packages-all": 5000,
};

function kptfile(name, mutators) {
  return `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\npipeline:\n  mutators:\n${mutators}`;
}
const pipeline = [
  "    - image: set-namespace:v0.4.1\n      configMap:\n        namespace: bench\n",
  "    - image: set-labels:v0.2.0\n      configMap:\n        team: bench\n",
  "    - image: set-annotations:v0.1.4\n      configMap:\n        owner: bench\n",
].join("");

function deployment(i) {
  return [
    "apiVersion: apps/v1",
    "kind: Deployment",
    "metadata:",
    `  name: app-${i} # generated`,
    "spec:",
    "  replicas: 2",
    "  template:",
    "    spec:",
    "      containers:",
    `        - name: app-${i}`,
    "          image: nginx:1.27",
  ].join("\n");
}

function generatedLarge() {
  const files = new Map([["Kptfile", encoder.encode(kptfile("large", pipeline))]]);
  for (let f = 0; f < 40; f++) {
    const docs = [];
    for (let r = 0; r < 50; r++) docs.push(deployment(f * 50 + r));
    files.set(`apps/file-${f}.yaml`, encoder.encode(`${docs.join("\n---\n")}\n`));
  }
  return files;
}

function generatedTree() {
  const files = new Map([["Kptfile", encoder.encode(kptfile("tree", pipeline))]]);
  for (let s = 0; s < 50; s++) {
    files.set(`sub-${s}/Kptfile`, encoder.encode(kptfile(`sub-${s}`, pipeline)));
    files.set(`sub-${s}/app.yaml`, encoder.encode(`${deployment(s)}\n`));
  }
  return files;
}

function readTree(root) {
  const files = new Map();
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else files.set(path.relative(root, full).split(path.sep).join("/"), readFileSync(full));
    }
  };
  walk(root);
  return files;
}

function realPackages() {
  const shared = path.resolve(here, "../../shared/real-packages");
  if (!existsSync(path.join(shared, "manifest.json"))) return undefined;
  const manifest = JSON.parse(readFileSync(path.join(shared, "manifest.json"), "utf8"));
  return manifest
    .filter((p) => p.builtinRenderable)
    .map((p) => {
      const dir = path.join(shared, p.repo.replace("/", "__"), p.path);
      return { name: p.path, files: readTree(dir) };
    });
}

async function measure(name, runs, body) {
  const times = [];
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let peak = heapBefore;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await body();
    times.push(performance.now() - start);
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const goal = goals[name];
  const verdict =
    goal === undefined ? "" : median <= goal ? ` (goal <= ${goal} ms: met)` : ` (goal <= ${goal} ms: MISSED)`;
  console.log(
    `${name}: median ${median.toFixed(1)} ms over ${runs} runs, heap growth ${((peak - heapBefore) / 2 ** 20).toFixed(1)} MiB${verdict}`,
  );
  return goal === undefined || median <= goal;
}

let ok = true;
const large = generatedLarge();
ok =
  (await measure("generated-2000-resources", 5, () =>
    renderPackage({ files: large, runtime, packageName: "large" }),
  )) && ok;
const tree = generatedTree();
ok =
  (await measure("generated-50-subpackages", 5, () =>
    renderPackage({ files: tree, runtime, packageName: "tree" }),
  )) && ok;
const real = realPackages();
if (real === undefined) {
  console.log("real-packages-all: skipped (../shared/real-packages is not beside this checkout)");
} else {
  ok =
    (await measure("real-packages-all", 3, async () => {
      for (const p of real)
        await renderPackage({ files: p.files, runtime, packageName: path.basename(p.name) });
    })) && ok;
}
process.exitCode = ok ? 0 : 1;
