import { describe, expect, it } from "vitest";
import { decidePublication, deletesBranch } from "../../src/lifecycle/proposals/publish.js";

describe("publish decides before it writes", () => {
  it("refuses exactly the packages the merge gate found a problem in, in the order they were touched", () => {
    expect(
      decidePublication({
        packagePaths: ["apps/web", "apps/db"],
        problems: [
          { packagePath: "apps/db", text: "Rendered=False" },
          { packagePath: "apps/db", text: "differs from its render" },
        ],
      }),
    ).toEqual([
      { packagePath: "apps/web", problems: [] },
      { packagePath: "apps/db", problems: ["Rendered=False", "differs from its render"] },
    ]);
  });

  it("deletes the draft branch only when every package was published and the branch is the app's", () => {
    const published = { packagePath: "a", kind: "published" as const, tag: "a/v1", revision: 1 };
    const again = { packagePath: "b", kind: "already-published" as const, tag: "b/v2", revision: 2 };
    const refused = { packagePath: "c", kind: "refused" as const, problems: ["x"] };
    const on = { deleteBranchOnPublish: true, sameRepository: true };
    expect(deletesBranch({ ...on, results: [published, again] })).toBe(true);
    expect(deletesBranch({ ...on, results: [published, refused] })).toBe(false);
    expect(deletesBranch({ ...on, sameRepository: false, results: [published] })).toBe(false);
    expect(deletesBranch({ ...on, deleteBranchOnPublish: false, results: [published] })).toBe(false);
  });
});
