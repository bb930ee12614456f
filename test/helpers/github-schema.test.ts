import { describe, expect, it } from "vitest";
import { findOperation, loadOperations, validateRequestBody, validateSchema } from "./github-schema.js";

describe("validateSchema", () => {
  const schema = {
    type: "object",
    required: ["name"],
    additionalProperties: false,
    properties: {
      name: { type: "string", maxLength: 3 },
      list: { type: "array", maxItems: 1, items: { type: "integer" } },
      kind: { type: "string", enum: ["a", "b"], nullable: true },
      either: { oneOf: [{ type: "string" }, { type: "integer" }] },
    },
  };
  it("accepts a valid value", () => {
    expect(validateSchema(schema, { name: "abc", list: [1], kind: null, either: 2 })).toEqual([]);
  });
  it("reports each violation with its path", () => {
    expect(validateSchema(schema, { list: [1.5, 2], kind: "c", extra: 1, either: true })).toEqual([
      'body: missing "name"',
      "body.list: 2 items, maximum 1",
      "body.list[0]: expected integer, got number",
      'body.kind: "c" not in enum',
      'body: unexpected "extra"',
      "body.either: matches 0 of oneOf (exactly 1 required)",
    ]);
  });
});

describe.skipIf(loadOperations() === null)("GitHub REST operations", () => {
  it("finds operations by method and path, refs with encoded slashes included", () => {
    expect(findOperation("PATCH", "/repos/o/r/git/refs/heads%2Fdrafts%2Fp%2Fv1")?.key).toBe(
      "PATCH /repos/{owner}/{repo}/git/refs/{ref}",
    );
    expect(findOperation("GET", "/api/v3/repos/o/r/git/trees/abc?recursive=1")?.key).toBe(
      "GET /repos/{owner}/{repo}/git/trees/{tree_sha}",
    );
  });
  it("rejects a check run with more than 50 annotations and accepts a valid one", () => {
    const annotation = { path: "a", start_line: 1, end_line: 1, annotation_level: "notice", message: "m" };
    const output = (n: number) => ({ title: "t", summary: "s", annotations: Array(n).fill(annotation) });
    const create = (n: number) => ({
      name: "x",
      head_sha: "abc",
      status: "completed",
      conclusion: "success",
      output: output(n),
    });
    expect(validateRequestBody("POST", "/repos/o/r/check-runs", create(50))).toEqual([]);
    expect(validateRequestBody("POST", "/repos/o/r/check-runs", create(51)).join()).toMatch(/maximum 50/);
  });
});
