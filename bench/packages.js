// Bench inputs: generated packages (N resources under a set-namespace + set-labels + apply-setters
// pipeline), the one-resource package of the start-up target, the builtin-renderable real packages of
// ../shared/real-packages, and the same packages with every step replaced by `exec: cat` for kpt.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseDocument } from "yaml";

const encoder = new TextEncoder();

/** Resources per generated file (the rest of the package is spread over files of this size). */
const PER_FILE = 50;

const PIPELINE = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: NAME
pipeline:
  mutators:
    - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.1
      configMap:
        namespace: bench
    - image: ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2.0
      configMap:
        team: bench
    - image: ghcr.io/kptdev/krm-functions-catalog/apply-setters:v0.2.0
      configMap:
        replicas: "3"
        image: nginx:1.28
`;

function deployment(i) {
  return `# app ${i}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${i}
  labels:
    app: app-${i}
spec:
  replicas: 2 # kpt-set: \${replicas}
  selector:
    matchLabels:
      app: app-${i}
  template:
    metadata:
      labels:
        app: app-${i}
    spec:
      containers:
        - name: app
          image: nginx:1.27 # kpt-set: \${image}
          ports:
            - containerPort: 80
`;
}

/** A package of `count` Deployments in files of 50 under a three-mutator pipeline: path -> bytes. */
export function generatedPackage(count) {
  const name = `gen-${count}`;
  const files = new Map([["Kptfile", encoder.encode(PIPELINE.replace("NAME", name))]]);
  for (let start = 0; start < count; start += PER_FILE) {
    const docs = [];
    for (let i = start; i < Math.min(count, start + PER_FILE); i++) docs.push(deployment(i));
    files.set(
      `apps/apps-${String(start / PER_FILE).padStart(4, "0")}.yaml`,
      encoder.encode(docs.join("---\n")),
    );
  }
  return { name, files };
}

/** The start-up target's package: one resource, one step. */
export function oneResourcePackage() {
  const files = new Map([
    [
      "Kptfile",
      encoder.encode(`apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: one
pipeline:
  mutators:
    - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.1
      configMap:
        namespace: bench
`),
    ],
    [
      "cm.yaml",
      encoder.encode("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\ndata:\n  key: value\n"),
    ],
  ]);
  return { name: "one-resource", files };
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

/**
 * Real packages (`{name, files, builtinRenderable, hasPipeline}`), the builtin-renderable ones only
 * unless `all`, or undefined when ../shared is not beside the checkout. Packages listed twice once.
 */
export function realPackages(sharedDir, all = false) {
  const dir = path.join(sharedDir, "real-packages");
  if (!existsSync(path.join(dir, "manifest.json"))) return undefined;
  const manifest = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8"));
  const seen = new Set();
  return manifest
    .filter(
      (p) =>
        (all || p.builtinRenderable) && !seen.has(`${p.repo}/${p.path}`) && seen.add(`${p.repo}/${p.path}`),
    )
    .map((p) => {
      const files = readTree(path.join(dir, p.repo.replace("/", "__"), p.path));
      return {
        name: `${p.repo}/${p.path}`,
        files,
        builtinRenderable: p.builtinRenderable,
        hasPipeline: hasPipeline(files),
      };
    });
}

/** Whether any Kptfile of a package has a pipeline step. */
export function hasPipeline(files) {
  for (const [p, bytes] of files) {
    if (p !== "Kptfile" && !p.endsWith("/Kptfile")) continue;
    const doc = parseDocument(Buffer.from(bytes).toString("utf8"));
    for (const kind of ["mutators", "validators"]) {
      const steps = doc.getIn(["pipeline", kind]);
      if (steps && Array.isArray(steps.items) && steps.items.length > 0) return true;
    }
  }
  return false;
}

/** Bytes of YAML a package holds (its resource files). */
export function yamlBytes(files) {
  let bytes = 0;
  for (const [p, b] of files) if (isResourceFile(p)) bytes += b.length;
  return bytes;
}

/** Total bytes and the number of YAML files of a package. */
export function packageSize(files) {
  let bytes = 0;
  for (const b of files.values()) bytes += b.length;
  return bytes;
}

/** Whether a package file is read as resources (kpt reads `*.yaml`, `*.yml` and `Kptfile`). */
export function isResourceFile(p) {
  return p.endsWith(".yaml") || p.endsWith(".yml") || p === "Kptfile" || p.endsWith("/Kptfile");
}

/**
 * The same package with every pipeline step replaced by `exec: cat` (kpt then pays only its own
 * floor: read, one process per step, write).
 */
export function identityExecPackage(files) {
  const out = new Map(files);
  for (const [p, bytes] of files) {
    if (p !== "Kptfile" && !p.endsWith("/Kptfile")) continue;
    const doc = parseDocument(Buffer.from(bytes).toString("utf8"));
    for (const kind of ["mutators", "validators"]) {
      const steps = doc.getIn(["pipeline", kind]);
      if (!steps || !Array.isArray(steps.items)) continue;
      steps.items = steps.items.map(() => doc.createNode({ exec: "cat" }));
    }
    out.set(p, encoder.encode(doc.toString()));
  }
  return out;
}

/** Writes a package below `dir` (created). */
export function writeTree(dir, files) {
  for (const [p, bytes] of files) {
    const target = path.join(dir, p);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, bytes);
  }
}
