import { describe, expect, it } from "vitest";
import { fileGlobMatcher, searchReplace } from "../../../src/runtimes/builtin/search-replace.js";
import { configMap, docs, dump } from "../helpers.js";

const ITEMS = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: the-app
spec:
  replicas: 1
  template:
    spec:
      containers:
        - name: app
          image: nginx:1.1
`;

const run = async (data: Record<string, string>, path = "app.yaml") => {
  const items = docs(ITEMS);
  items[0].setIn(["metadata", "annotations", "config.kubernetes.io/path"], path);
  const out = await searchReplace.run({ items, functionConfig: configMap(data), results: [] });
  out.items[0].deleteIn(["metadata", "annotations"]);
  return { ...out, yaml: dump(out.items) };
};

describe("search-replace", () => {
  it("replaces by path and value", async () => {
    const out = await run({ "by-path": "metadata.name", "by-value": "the-app", "put-value": "my-app" });
    expect(out.yaml).toContain("  name: my-app\n");
    expect(out.results).toEqual([
      {
        message: 'Mutated field value to "my-app"',
        field: { path: "metadata.name" },
        file: { path: "app.yaml" },
      },
    ]);
  });

  it("uses regex capture groups and ** paths", async () => {
    const out = await run({
      "by-path": "spec.**.image",
      "by-value-regex": "nginx:(.*)",
      "put-value": `httpd:\${1}`,
    });
    expect(out.yaml).toContain("image: httpd:1.1\n");
    expect(out.results[0].field).toEqual({ path: "spec.template.spec.containers[0].image" });
  });

  it("matches by-value-regex with Go's RE2: named groups, linear time on a catastrophic pattern", async () => {
    const named = await run({
      "by-value-regex": "(?P<server>nginx):(?P<tag>.*)",
      "put-value": `\${2}-\${1}`,
    });
    expect(named.yaml).toContain("image: 1.1-nginx\n");
    // kpt's functions use Go's RE2, which cannot backtrack: `(a+)+$` on a long value answers at once.
    const items = docs(
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  k: ${"a".repeat(50_000)}!\n`,
    );
    const config = configMap({ "by-value-regex": "(a+)+$", "put-value": "y" });
    const out = await searchReplace.run({ items, functionConfig: config, results: [] });
    expect(out.results).toEqual([{ message: "no matches" }]);
  });

  it("reports a by-value-regex that RE2 refuses with Go's message", async () => {
    const bad = await run({ "by-value-regex": "(a)\\1", "put-value": "x" });
    expect(bad.results[0]).toMatchObject({ severity: "error" });
    expect(bad.results[0].message).toContain("error parsing regexp: invalid escape sequence");
  });

  it("puts a value at an absolute path, creating it, and puts comments", async () => {
    const put = await run({ "by-path": "spec.paused", "put-value": "true" });
    expect(put.yaml).toContain("  paused: true\n");
    const comment = await run({ "by-value": "nginx:1.1", "put-comment": `kpt-set: \${image}` });
    expect(comment.yaml).toContain(`image: nginx:1.1 # kpt-set: \${image}\n`);
  });

  it("matches nothing outside by-file-path and rejects unknown matchers", async () => {
    const none = await run({ "by-value": "the-app", "by-file-path": "other/*.yaml", "put-value": "x" });
    expect(none.results).toEqual([{ message: "no matches" }]);
    const bad = await run({ "by-name": "x" });
    expect(bad.results[0].severity).toBe("error");
    expect(bad.results[0].message).toContain("invalid matcher");
  });

  it("globs like doublestar", () => {
    expect(fileGlobMatcher("**/*.yaml")("a/b/c.yaml")).toBe(true);
    expect(fileGlobMatcher("**/*.yaml")("c.yaml")).toBe(true);
    expect(fileGlobMatcher("*.yaml")("a/c.yaml")).toBe(false);
    expect(fileGlobMatcher("{a,b}/*.yaml")("b/x.yaml")).toBe(true);
    expect(fileGlobMatcher("**/setters.yaml")("pkg/.hidden/setters.yaml")).toBe(true);
  });
});
