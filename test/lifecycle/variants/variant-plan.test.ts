/**
 * The variants use-case's pure decisions: what one variant's reconciliation writes from what was read
 * (its content, its draft), a gone draft's fate, and the report's conclusion.
 */
import { describe, expect, it } from "vitest";
import { decideGoneDraft } from "../../../src/lifecycle/variants/decide/gone-drafts.js";
import { decideVariant, type VariantContent } from "../../../src/lifecycle/variants/decide/variant-plan.js";
import { variantsReport } from "../../../src/lifecycle/variants/decide/variants-report.js";
import type { DraftFacts } from "../../../src/lifecycle/variants/read/variant-draft.js";
import type { ResolvedVariant } from "../../../src/lifecycle/variants/read/variant-target.js";

const pv: ResolvedVariant = {
  name: "east",
  file: "package-variants/east.yaml",
  spec: {},
  upstream: { repo: "org/blueprints", package: "base", revision: 2 },
  downstream: { repo: "org/deploy", package: "east" },
  adoptionPolicy: "adoptNone",
  deletionPolicy: "delete",
};
const files = (text: string) => new Map([["Kptfile", Buffer.from(text)]]);
const content = (over: Partial<VariantContent> = {}): VariantContent => ({
  action: "upgrade",
  base: files("old"),
  files: files("new"),
  overrides: [],
  injections: [],
  ...over,
});
const BRANCH = "drafts/east/variant-east";
const ours = (over: Partial<NonNullable<NonNullable<DraftFacts["head"]>["ours"]>> = {}) => ({
  sha: "a1",
  holds: true,
  reported: true,
  rejected: undefined,
  ...over,
});

describe("decideVariant", () => {
  it("writes nothing when the default branch holds the content", () => {
    const plan = decideVariant(pv, content({ files: files("old") }), undefined);
    expect(plan).toEqual({
      row: { name: "east", file: pv.file, downstream: "east", state: "current", injections: [] },
    });
  });

  it("commits and opens a pull request when there is no draft", () => {
    const plan = decideVariant(pv, content(), { branch: BRANCH, pull: undefined });
    expect(plan.row.state).toBe("upgrade");
    expect(plan.writes).toMatchObject({
      branch: BRANCH,
      commit: { message: "PackageVariant east: upgrade east (org/blueprints base/v2)\n" },
      pull: { kind: "open", overrides: [] },
    });
    expect(plan.writes?.reportOn).toBeUndefined();
  });

  it("leaves a draft a person pushed to, with its pull request", () => {
    const plan = decideVariant(pv, content(), { branch: BRANCH, pull: 7, head: { sha: "h1" } });
    expect(plan).toEqual({
      row: expect.objectContaining({
        state: "held",
        pull: 7,
        message: expect.stringContaining("someone pushed"),
      }),
    });
  });

  it("re-commits and updates the pull request when the app's commit holds other content", () => {
    const plan = decideVariant(pv, content(), {
      branch: BRANCH,
      pull: 7,
      head: { sha: "a1", ours: ours({ holds: false }) },
    });
    expect(plan.writes).toMatchObject({ commit: {}, pull: { kind: "update", number: 7 } });
  });

  it("reports on a head that lacks the app's report and keeps the open pull request", () => {
    const plan = decideVariant(pv, content(), {
      branch: BRANCH,
      pull: 7,
      head: { sha: "h2", ours: ours({ reported: false }) },
    });
    expect(plan.row).toMatchObject({ state: "upgrade" });
    expect(plan.writes).toMatchObject({ reportOn: "h2", pull: { kind: "keep", number: 7 } });
    expect(plan.writes?.commit).toBeUndefined();
  });

  it("does not propose again what a person rejected, but still reports on the head", () => {
    const draft = {
      branch: BRANCH,
      pull: undefined,
      head: { sha: "h2", ours: ours({ reported: false, rejected: 4 }) },
    };
    const plan = decideVariant(pv, content(), draft);
    expect(plan.row).toMatchObject({ state: "rejected", pull: 4 });
    expect(plan.writes).toMatchObject({ reportOn: "h2" });
    expect(plan.writes?.pull).toBeUndefined();
    expect(
      decideVariant(pv, content(), { ...draft, head: { sha: "a1", ours: ours({ rejected: 4 }) } }).writes,
    ).toBeUndefined();
  });
});

describe("decideGoneDraft", () => {
  const gone = { name: "west", branch: "drafts/west/variant-west", packagePath: "west", pull: 9 };
  it("deletes under deletionPolicy delete", () => {
    expect(decideGoneDraft({ ...gone, appExternalId: "variant west edit deletion=delete" })).toEqual({
      row: { name: "west", file: "", downstream: "west", state: "deleted" },
      remove: { branch: gone.branch, pull: 9 },
    });
  });
  it("keeps an orphan and a draft a person pushed to", () => {
    expect(decideGoneDraft({ ...gone, appExternalId: "variant west edit deletion=orphan" })).toMatchObject({
      row: { state: "orphaned", message: "deletionPolicy orphan: draft kept" },
    });
    const pushed = decideGoneDraft({ ...gone, appExternalId: null });
    expect(pushed.row.message).toBe("someone pushed to the draft: kept");
    expect(pushed.remove).toBeUndefined();
  });
});

describe("variantsReport", () => {
  it("fails on a problem or a failed row, and names the summary in its external id", () => {
    const ok = variantsReport([{ name: "a", file: "f", downstream: "a", state: "current" }], [], []);
    expect(ok.conclusion).toBe("success");
    expect(ok.externalId).toMatch(/^variants [0-9a-f]+$/);
    expect(variantsReport([], ["bad"], []).conclusion).toBe("failure");
    expect(
      variantsReport([{ name: "a", file: "f", downstream: "a", state: "failed" }], [], []).conclusion,
    ).toBe("failure");
  });
});
