import { describe, expect, it } from "vitest";
import { decideUpgrade, type UpgradeFacts } from "../../src/lifecycle/upstream/upgrade-decision.js";
import type { UpstreamDeletion } from "../../src/report/upstream-deleted.js";

const behind = { kind: "read", variant: false, current: 1, latest: 3 } as const;
const ok = { ok: true, overrides: 2, needsReview: false } as const;
const ours = { head: "h", ours: "o", holdsUpgrade: true, headReported: false, rejected: undefined };
const facts = (f: Partial<UpgradeFacts>): UpgradeFacts => ({ autoMerge: false, ...f });
const deletion = { pkg: "app", kind: "removed" } as UpstreamDeletion;

describe("decideUpgrade (pure)", () => {
  it("asks for each fact it needs, in order, and only those", () => {
    expect(decideUpgrade(facts({}))).toEqual({ kind: "read", fact: "status" });
    expect(decideUpgrade(facts({ status: behind }))).toEqual({ kind: "read", fact: "deletion" });
    expect(decideUpgrade(facts({ status: behind, deletion: null }))).toEqual({
      kind: "read",
      fact: "upgrade",
    });
    expect(decideUpgrade(facts({ status: behind, deletion: null, upgrade: ok }))).toEqual({
      kind: "read",
      fact: "draft",
    });
    // Up to date: the deletion is not even read; only whether an upgrade pull request is left open.
    const upToDate = { ...behind, latest: 1 };
    expect(decideUpgrade(facts({ status: upToDate }))).toEqual({ kind: "read", fact: "obsolete" });
    expect(decideUpgrade(facts({ status: upToDate, obsolete: null }))).toEqual({
      kind: "done",
      outcome: { kind: "up-to-date" },
    });
    // One is (its revision deleted, or the downstream upgraded by hand): it is closed.
    expect(decideUpgrade(facts({ status: upToDate, obsolete: { number: 4 } }))).toEqual({
      kind: "close-obsolete",
      pull: 4,
      current: 1,
      latest: 1,
    });
  });

  it("ends with nothing to write for non-downstreams, variants' packages and packages on no revision", () => {
    expect(decideUpgrade(facts({ status: { kind: "none" } })).kind).toBe("done");
    expect(decideUpgrade(facts({ status: { ...behind, variant: true } }))).toEqual({
      kind: "done",
      outcome: { kind: "owned-by-variant" },
    });
    expect(decideUpgrade(facts({ status: { ...behind, current: undefined } }))).toEqual({
      kind: "done",
      outcome: { kind: "not-on-revision" },
    });
    const none = { ...behind, latest: undefined };
    expect(decideUpgrade(facts({ status: none, deletion: null }))).toEqual({
      kind: "done",
      outcome: { kind: "no-revision" },
    });
  });

  it("reports a blocked upstream, ends the upgrades of a deleted one, reports a merge that fails", () => {
    expect(decideUpgrade(facts({ status: { kind: "blocked", reason: "r" } }))).toEqual({
      kind: "report-blocked",
      reason: "r",
    });
    expect(decideUpgrade(facts({ status: behind, deletion }))).toEqual({ kind: "end-upgrades", deletion });
    expect(
      decideUpgrade(facts({ status: behind, deletion: null, upgrade: { ok: false, message: "m" } })),
    ).toEqual({ kind: "report-failure", to: 3, message: "m" });
  });

  it("writes a new draft, updates the open pull request, holds a person's push, keeps a current draft", () => {
    const base = { status: behind, deletion: null, upgrade: ok } as const;
    expect(decideUpgrade(facts({ ...base, draft: { pull: undefined, branch: undefined } }))).toEqual({
      kind: "write",
      to: 3,
      update: undefined,
      overrides: 2,
    });
    const pull = { number: 7, draft: false };
    const stale = { ...ours, holdsUpgrade: false };
    expect(decideUpgrade(facts({ ...base, draft: { pull, branch: stale } }))).toEqual({
      kind: "write",
      to: 3,
      update: 7,
      overrides: 2,
    });
    expect(decideUpgrade(facts({ ...base, draft: { pull, branch: { ...ours, ours: undefined } } }))).toEqual({
      kind: "hold",
      to: 3,
      comment: 7,
    });
    expect(decideUpgrade(facts({ ...base, draft: { pull, branch: ours } }))).toEqual({
      kind: "keep",
      to: 3,
      reportHead: true,
      open: false,
      tryMerge: false,
      overrides: 2,
    });
  });

  it("never reopens a rejected upgrade; auto-merges only what needs no review and is no GitHub draft", () => {
    const base = { status: behind, deletion: null, upgrade: ok } as const;
    expect(
      decideUpgrade(facts({ ...base, draft: { pull: undefined, branch: { ...ours, rejected: 5 } } })),
    ).toEqual({ kind: "done", outcome: { kind: "rejected", to: 3, pull: 5 } });
    const keep = (f: Partial<UpgradeFacts>) => decideUpgrade(facts({ ...base, autoMerge: true, ...f }));
    expect(keep({ draft: { pull: undefined, branch: ours } })).toMatchObject({ open: true, tryMerge: true });
    expect(keep({ draft: { pull: { number: 7, draft: true }, branch: ours } })).toMatchObject({
      tryMerge: false,
    });
    expect(
      keep({ upgrade: { ...ok, needsReview: true }, draft: { pull: undefined, branch: ours } }),
    ).toMatchObject({ tryMerge: false });
  });
});
