import { describe, expect, it } from "vitest";
import { decideProposal, type ProposalFacts } from "../../src/lifecycle/proposals/propose.js";

const open: ProposalFacts = {
  state: "open",
  merged: false,
  intoDefault: true,
  baseRef: "main",
  ownDraft: true,
  action: "opened",
};

describe("decideProposal (pure)", () => {
  it("a closed pull request: merged is the publish job's, unmerged is a rejection", () => {
    expect(decideProposal({ ...open, state: "closed", merged: true })).toEqual({
      kind: "ignored",
      reason: "merged: published by the publish job",
    });
    expect(decideProposal({ ...open, state: "closed" })).toEqual({ kind: "reject" });
  });

  it("ignores a base that is not the default branch; judges a fork or another branch itself", () => {
    expect(decideProposal({ ...open, intoDefault: false, baseRef: "dev" })).toEqual({
      kind: "ignored",
      reason: "base dev is not the default branch",
    });
    expect(decideProposal({ ...open, ownDraft: false })).toEqual({ kind: "judge-foreign" });
  });

  it("a draft branch: a push renders; else the verdict is read, rendered when pending, followed up when concluded", () => {
    expect(decideProposal({ ...open, action: "synchronize" })).toEqual({ kind: "render" });
    expect(decideProposal(open)).toEqual({ kind: "read-verdict" });
    expect(decideProposal({ ...open, verdict: { kind: "pending" } })).toEqual({ kind: "render" });
    expect(decideProposal({ ...open, verdict: { kind: "concluded", conclusion: "success" } })).toEqual({
      kind: "follow-up",
      conclusion: "success",
      judgeAgain: false,
    });
    expect(decideProposal({ ...open, verdict: { kind: "concluded", conclusion: "failure" } })).toMatchObject({
      judgeAgain: true,
    });
  });
});
