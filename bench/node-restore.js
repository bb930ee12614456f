// biome-ignore-all lint/suspicious/noTemplateCurlyInString: kpt setter comments (`# kpt-set: ${name}`) are data here
// kyaml's CopyComments + SyncOrder after a function, on 1,000 Deployments: the node forms
// (src/krm/node-restore.ts: takeNodeShape before the function, restoreNodeShape after) against the
// Document forms (documentShape, copyComments, syncFieldOrder on the Documents), next to our reader's
// parse time of the same text. Two inputs: without comments, and with kpt setter comments (a line
// comment on three values, a head comment on one key). Two outputs: the input edited in place (a
// builtin: one label added; the edit itself untimed) and an exec function's (comments gone, keys
// reversed).
// Rounds interleave the scenarios; medians [min–max] in ms for the 1,000 documents.
// Usage: npm run build && node --expose-gc bench/node-restore.js [rounds]
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { interleave, spread, summary } from "./stats.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const load = (p) => import(pathToFileURL(path.join(repoRoot, "dist/src", p)).href);
const yaml = await load("yaml/index.js");
const { nodeToDocument } = await load("yaml/to-document.js");
const { takeNodeShape, restoreNodeShape } = await load("krm/node-restore.js");
const { documentShape } = await load("krm/resource-shape.js");
const { copyComments } = await load("krm/comments.js");
const { syncFieldOrder } = await load("krm/field-order.js");

const rounds = Number(process.argv[2] ?? 15);
const COUNT = 1000;

function deployment(i, commented) {
  const c = (text) => (commented ? ` # ${text}` : "");
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${i}${c("kpt-set: ${name}")}
  namespace: team-${i % 7}
  labels:
    app: app-${i}
    tier: backend
spec:
  replicas: 3${c("kpt-set: ${replicas}")}
  selector:
    matchLabels:
      app: app-${i}
  template:
    metadata:
      labels:
        app: app-${i}
    spec:
${commented ? "      # the serving container\n" : ""}      containers:
      - name: app
        image: registry.example.com/app:1.${i % 10}.0${c("kpt-set: ${image}")}
        ports:
        - containerPort: 8080
          name: http
        env:
        - name: MODE
          value: production
        - name: POD
          valueFrom:
            fieldRef:
              fieldPath: metadata.name
        resources:
          limits:
            cpu: 500m
            memory: 256Mi
`;
}

function reverse(n) {
  n.headComment = "";
  n.lineComment = "";
  n.footComment = "";
  for (const child of n.content) reverse(child);
  if (n.kind === yaml.Kind.Mapping) {
    const c = n.content;
    const out = [];
    for (let i = c.length - 2; i >= 0; i -= 2) out.push(c[i], c[i + 1]);
    n.content = out;
  }
}

function addLabel(doc) {
  const labels = yaml.mapGet(yaml.mapGet(doc.content[0], "metadata"), "labels");
  labels.content.push(yaml.scalar("added"), yaml.scalar("yes"));
}

const results = {};
for (const commented of [false, true]) {
  const text = Array.from({ length: COUNT }, (_, i) => deployment(i, commented)).join("---\n");
  const inputs = yaml.readYamlStream(text).map((d) => d.node);
  const label = commented ? "with comments" : "without comments";
  // Outputs prepared outside the timed part: one fresh set per round and scenario.
  const fresh = (edit) =>
    inputs.map((n) => {
      const o = yaml.cloneNode(n);
      edit(o);
      return o;
    });
  const inputDocs = inputs.map(nodeToDocument);
  const freshDocs = (edit) => fresh(edit).map(nodeToDocument);
  const time = (fn) => {
    globalThis.gc?.();
    const start = performance.now();
    fn();
    return performance.now() - start;
  };
  const scenarios = [
    { name: "parse (readYamlStream)", run: () => time(() => yaml.readYamlStream(text)) },
    {
      name: "nodes, in place",
      run: () => {
        const docs = inputs.map(yaml.cloneNode);
        let shapes;
        const taking = time(() => {
          shapes = docs.map(takeNodeShape);
        });
        for (const d of docs) addLabel(d);
        return (
          taking +
          time(() => {
            for (let i = 0; i < COUNT; i++) restoreNodeShape(shapes[i], docs[i]);
          })
        );
      },
    },
    {
      name: "Documents, in place",
      run: () => {
        const docs = inputs.map(nodeToDocument);
        let shapes;
        const taking = time(() => {
          shapes = docs.map(documentShape);
        });
        for (const d of docs) d.getIn(["metadata", "labels"]).set("added", "yes");
        return (
          taking +
          time(() => {
            for (let i = 0; i < COUNT; i++) {
              copyComments(shapes[i], docs[i]);
              syncFieldOrder(shapes[i], docs[i]);
            }
          })
        );
      },
    },
    {
      name: "nodes, exec output",
      run: () => {
        const outs = fresh(reverse);
        return time(() => {
          for (let i = 0; i < COUNT; i++) restoreNodeShape(takeNodeShape(inputs[i]), outs[i]);
        });
      },
    },
    {
      name: "Documents, exec output",
      run: () => {
        const outs = freshDocs(reverse);
        return time(() => {
          for (let i = 0; i < COUNT; i++) {
            const s = documentShape(inputDocs[i]);
            copyComments(s, outs[i]);
            syncFieldOrder(s, outs[i]);
          }
        });
      },
    },
  ];
  const samples = await interleave(rounds, scenarios);
  results[label] = Object.fromEntries(
    [...samples].map(([name, v]) => [name, spread(summary(v.slice(2)), 2)]),
  );
}
console.log(JSON.stringify({ documents: COUNT, rounds, ms: results }, null, 2));
