/**
 * apply-setters' node form against its Document form: the same bytes, items and results on every
 * ../shared/conformance step that runs it and on fixtures of the edge cases (quoting, comments,
 * setters in sequences and flow collections, array setters).
 */
import { describe, expect, it } from "vitest";
import { applySetters } from "../../../src/runtimes/builtin/apply-setters.js";
import { configMap } from "../helpers.js";
import { describeSharedCases, expectSameBothWays, fixture } from "./node-diff.js";

describeSharedCases(applySetters, 5);

const SCALARS = `# head
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app # kpt-set: \${app}
  namespace: "ns" # kpt-set: \${ns}
  labels:
    quoted: 'x' # kpt-set: \${quoted}
    env: dev # kpt-set: \${env}-\${region}
spec:
  replicas: 2 # kpt-set: \${replicas}
  paused: false # kpt-set: \${paused}
  note: |- # kpt-set: \${note}
    old
  empty: x # kpt-set: \${empty}
  template:
    spec:
      containers:
        - name: app
          image: nginx:1.27 # kpt-set: \${image}
          args:
            - --a # kpt-set: --\${flag}
            - plain
          env: [{name: A, value: b}]
      tolerations: [a, b] # kpt-set: \${list}
---
apiVersion: v1
kind: ConfigMap
data:
  other: "1" # kpt-set: \${unknown}
`;

const ARRAYS = `apiVersion: v1
kind: ConfigMap
metadata:
  name: lists
data:
  block: # kpt-set: \${list}
    - a
    - b
  before:
    # kpt-set: \${list}
    - a
  flow: [a, b] # kpt-set: \${list}
  flowOnKey: # kpt-set: \${list}
    []
  empty: # kpt-set: \${emptyList}
    # above the first item
    - a
    # below the list
  last: # kpt-set: \${maps}
    - x
`;

// Without the `key: # comment` line above a flow list: our writer drops that comment from the
// unedited node (the Document form writes `flowOnKey: [] # ...`), which a failed run leaves as read.
const ARRAYS_UNEDITED = ARRAYS.replace(`  flowOnKey: # kpt-set: \${list}\n    []\n`, "");

const fixtures: Array<[string, string, Record<string, string>]> = [
  [
    "scalars",
    SCALARS,
    {
      app: "web",
      ns: "prod",
      quoted: "true",
      env: "prod",
      region: "eu",
      replicas: "3",
      paused: "true",
      note: "new",
      empty: "",
      image: "nginx:1.28",
      flag: "b",
    },
  ],
  [
    "values reading as other types",
    SCALARS,
    { app: "123", ns: "~", env: "1.5", replicas: "0x1F", note: "null" },
  ],
  ["values needing quotes", SCALARS, { app: "a: b", ns: "#x", env: " lead", replicas: "", image: "a\nb" }],
  ...[
    "0x1F",
    "1_000",
    "2001-12-14",
    ".inf",
    "-.Inf",
    ".nan",
    "1e3",
    "+12",
    "010",
    "0o17",
    "NULL",
    "True",
    "0b101",
    "1.50",
    "3",
  ].map((v): [string, string, Record<string, string>] => [
    `a plain value re-read: ${v}`,
    SCALARS,
    { app: v, replicas: v, paused: v, note: v },
  ]),
  ["a setter read back from the value", SCALARS, { region: "us" }],
  ["an unresolved setter (error)", SCALARS, { env: "x" }],
  ["no setters given", SCALARS, {}],
  ["array setters", ARRAYS, { list: "[x, y]", emptyList: "", maps: "- name: a\n  value: b" }],
  ["array setters emptied", ARRAYS, { list: "", emptyList: "", maps: "" }],
  ["an array setter with a scalar (error)", ARRAYS_UNEDITED, { list: "a" }],
  ["an array setter with bad YAML (error)", ARRAYS_UNEDITED, { list: "[a" }],
  ["an array setter with two documents (error)", ARRAYS_UNEDITED, { list: "- a\n---\n- b" }],
];

describe("apply-setters runNodes on fixtures", () => {
  it.each(fixtures)("%s", async (_name, text, data) => {
    const out = await expectSameBothWays(applySetters, fixture(text), () => configMap(data));
    expect(out).toBeDefined();
  });
  it("sets scalars keeping comments; plain values re-resolved", async () => {
    const out = await expectSameBothWays(applySetters, fixture(SCALARS), () =>
      configMap({ replicas: "3", quoted: "true", app: "123" }),
    );
    expect(out?.[0]).toContain(`  replicas: 3 # kpt-set: \${replicas}\n`);
    expect(out?.[0]).toContain(`    quoted: 'true' # kpt-set: \${quoted}\n`);
  });
  it("the same text set on fields written differently comes out per field", async () => {
    // One setter, one style, three current texts: the number's source text decides what is written.
    const text = `apiVersion: v1
kind: ConfigMap
metadata:
  name: numbers
data:
  hex: 0x10 # kpt-set: \${n}
  dec: 16 # kpt-set: \${n}
  again: 0x10 # kpt-set: \${n}
  quoted: "16" # kpt-set: \${n}
  other: 7 # kpt-set: \${n}
`;
    const out = await expectSameBothWays(applySetters, fixture(text), () => configMap({ n: "16" }));
    expect(out?.[0]).toContain("  hex: 0x10 # kpt-set: ${n}\n  dec: 16 # kpt-set: ${n}\n  again: 0x10 #");
    expect(out?.[0]).toContain(`  quoted: "16" # kpt-set: \${n}\n  other: 16 # kpt-set: \${n}\n`);
  });
  it("a non-ConfigMap config and none", async () => {
    await expectSameBothWays(applySetters, fixture(SCALARS), () => undefined);
  });
});
