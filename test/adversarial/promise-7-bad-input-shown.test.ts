/**
 * Promise 7 — bad input is shown where it is. Invalid YAML in a resource or a Kptfile is annotated at
 * its file and line; multi-megabyte files (over GraphQL's 512,000-byte text limit: a changed 2 MB file, a
 * 6 MB CRD bundle) render; a file over the operator's documented limit fails with a message naming the
 * file, its size and the limit — never blaming GitHub or calling itself a bug.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Any,
  configMap,
  fakeGitHubAvailable,
  type Harness,
  kptfile,
  OWNER,
  startHarness,
  waitForVerdict,
} from "./support.js";

/** `megabytes` of ConfigMaps in one file (a CRD bundle's size). */
function bundle(megabytes: number): string {
  const docs: string[] = [];
  for (let size = 0, i = 0; size < megabytes * 1e6; i++) {
    const doc = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\ndata:\n  a: "${"x".repeat(500)}"\n`;
    docs.push(doc);
    size += doc.length + 4;
  }
  return docs.join("---\n");
}

/**
 * `megabytes` of CustomResourceDefinitions in one file (as operators ship them). They are cluster-scoped:
 * set-namespace leaves them as they are, so the render keeps the file's bytes and commits only the Kptfile
 * (the fake GitHub's createCommitOnBranch refuses changed files over about 3 MB; GitHub takes more).
 */
function crdBundle(megabytes: number): string {
  const properties = Array.from(
    { length: 150 },
    (_, i) =>
      `                field${i}:\n                  type: string\n                  description: "${"d".repeat(60)}"\n`,
  ).join("");
  const docs: string[] = [];
  for (let size = 0, i = 0; size < megabytes * 1e6; i++) {
    const doc = `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets${i}.example.com\nspec:\n  group: example.com\n  names:\n    kind: Widget${i}\n    plural: widgets${i}\n  scope: Namespaced\n  versions:\n    - name: v1\n      served: true\n      storage: true\n      schema:\n        openAPIV3Schema:\n          type: object\n          properties:\n            spec:\n              type: object\n              properties:\n${properties}`;
    docs.push(doc);
    size += doc.length + 4;
  }
  return docs.join("---\n");
}

describe.skipIf(!fakeGitHubAvailable)("promise 7: bad input is shown where it is", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ PORCHLIGHT_MAX_FILE_BYTES: "8000000" });
    await harness.gh.createRepo(OWNER, "p7", {
      "yaml/Kptfile": kptfile("yaml"),
      "yaml/cm.yaml": configMap("yaml", 0),
      "kptfile/Kptfile": kptfile("kptfile"),
      "big/Kptfile": kptfile("big"),
      "big/cm.yaml": configMap("big", 0),
      "crds/Kptfile": kptfile("crds"),
      "crds/cm.yaml": configMap("crds", 0),
      "huge/Kptfile": kptfile("huge"),
      "huge/cm.yaml": configMap("huge", 0),
    });
    await harness.gh.idle({ quietMs: 500 });
  }, 180_000);
  afterAll(async () => harness?.stop());

  const push = (branch: string, files: Record<string, string>) =>
    harness.gh.pushFiles(OWNER, "p7", branch, files, "edit", { from: "main" });

  it("annotates invalid YAML in a resource at its file and line", async () => {
    await push("drafts/yaml/v1", {
      "yaml/bad.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n data: [\n",
    });
    const { runs } = await waitForVerdict(harness, "p7", "drafts/yaml/v1");
    expect(runs[0].conclusion).toBe("failure");
    expect(runs[0].annotations.map((a: Any) => [a.path, a.start_line, a.annotation_level])).toContainEqual([
      "yaml/bad.yaml",
      5,
      "failure",
    ]);
  }, 120_000);

  it("annotates an invalid Kptfile at its line", async () => {
    await push("drafts/kptfile/v1", {
      "kptfile/Kptfile": "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: k\n pipeline: x\n",
    });
    const { runs } = await waitForVerdict(harness, "p7", "drafts/kptfile/v1");
    expect(runs[0].conclusion).toBe("failure");
    expect(runs[0].annotations.map((a: Any) => [a.path, a.start_line, a.title])).toContainEqual([
      "kptfile/Kptfile",
      5,
      "Invalid Kptfile",
    ]);
  }, 120_000);

  it("renders a 2 MB file (over GraphQL's text limit, under the operator's)", async () => {
    await push("drafts/big/v1", { "big/bundle.yaml": bundle(2) });
    const { sha, runs } = await waitForVerdict(harness, "p7", "drafts/big/v1", 120_000);
    expect(runs.map((r: Any) => r.conclusion)).toEqual(["success"]);
    const rendered = await harness.gh.gitShow(OWNER, "p7", sha, "big/bundle.yaml");
    expect(rendered.length).toBeGreaterThan(2_000_000);
    expect(rendered).toContain("namespace: prod");
  }, 180_000);

  it("renders a 6 MB CRD bundle, keeping its bytes", async () => {
    const crds = crdBundle(6);
    await push("drafts/crds/v1", { "crds/crds.yaml": crds });
    const { sha, runs } = await waitForVerdict(harness, "p7", "drafts/crds/v1", 150_000);
    expect(runs.map((r: Any) => r.conclusion)).toEqual(["success"]);
    expect(await harness.gh.gitShow(OWNER, "p7", sha, "crds/Kptfile")).toContain("reason: RenderSuccess");
    const kept: string | null = await harness.gh.gitShow(OWNER, "p7", sha, "crds/crds.yaml");
    expect(kept?.length).toBe(crds.length);
    expect(kept === crds).toBe(true);
  }, 200_000);

  it("refuses a file over the operator's limit naming the file, its size and the limit", async () => {
    await push("drafts/huge/v1", { "huge/bundle.yaml": bundle(9) });
    const { runs } = await waitForVerdict(harness, "p7", "drafts/huge/v1", 120_000);
    expect(runs.map((r: Any) => r.conclusion)).toEqual(["failure"]);
    const summary: string = runs[0].output.summary;
    expect(summary).toMatch(
      /huge\/bundle\.yaml is 9\.0 MB, over the limit of 8\.0 MB \(PORCHLIGHT_MAX_FILE_BYTES/,
    );
    expect(summary).not.toMatch(/GitHub refused|porchlight bug/);
  }, 120_000);
});
