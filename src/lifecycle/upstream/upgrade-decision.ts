/**
 * What an upgrade of one downstream package does, decided purely from what was read (see
 * ./upgrade-downstream.ts): the reader asks {@link decideUpgrade} until it answers a decision instead
 * of a fact to read, then the writer carries that decision out once.
 */
import type { UpstreamDeletion } from "../../report/upstream-deleted.js";

/** What {@link upgradeDownstream} did. */
export type UpgradeOutcome =
  | { kind: "not-downstream" | "not-on-revision" | "up-to-date" | "no-revision" | "owned-by-variant" }
  | { kind: "failed" | "blocked"; message: string }
  | { kind: "held"; to: number }
  | { kind: "upstream-deleted"; closed: number[] }
  | { kind: "obsolete"; pull: number; current: number }
  | { kind: "rejected" | "merged"; to: number; pull: number }
  | { kind: "proposed" | "updated" | "current"; to: number; pull: number | undefined; overrides: number };

/** The app draft `drafts/<package>/upstream-upgrade` and its pull request, as read. */
export interface DraftFacts {
  /** Its open pull request (`draft`: a GitHub draft). */
  pull: { number: number; draft: boolean } | undefined;
  /** The branch, when it exists. */
  branch:
    | {
        head: string;
        /** The app's own last commit on it; undefined: a person pushed to it. */
        ours: string | undefined;
        /** The app's commit holds exactly the computed upgrade. */
        holdsUpgrade: boolean;
        /** Its head already carries a `porchlight/upgrade` run (or is the app's commit). */
        headReported: boolean;
        /** A pull request closed unmerged at its head (a rejection), read only without an open one. */
        rejected: number | undefined;
      }
    | undefined;
}

/** What was read so far; an absent field is not read yet. */
export interface UpgradeFacts {
  /** The downstream's status: `blocked` (its upstream is not read, and why), `none` (not a downstream). */
  status?:
    | { kind: "blocked"; reason: string }
    | { kind: "none" }
    | { kind: "read"; variant: boolean; current: number | undefined; latest: number | undefined };
  /** Whether its upstream package was deleted (null: it was not). */
  deletion?: UpstreamDeletion | null;
  /** The computed upgrade: its size and whether a person must look, or why it cannot be done. */
  upgrade?: { ok: true; overrides: number; needsReview: boolean } | { ok: false; message: string };
  draft?: DraftFacts;
  /**
   * The app's open upgrade pull request while the downstream is up to date (null: none) — an upgrade to
   * a revision since deleted, or one the downstream made by hand; read only then.
   */
  obsolete?: { number: number } | null;
  /** `upgrades.autoMerge` of the repository. */
  autoMerge: boolean;
}

/** The next step: a fact to read, or the one write to do. */
export type UpgradeDecision =
  | { kind: "read"; fact: "status" | "deletion" | "upgrade" | "draft" | "obsolete" }
  | { kind: "close-obsolete"; pull: number; current: number; latest: number }
  | { kind: "done"; outcome: UpgradeOutcome }
  | { kind: "report-blocked"; reason: string }
  | { kind: "end-upgrades"; deletion: UpstreamDeletion }
  | { kind: "report-failure"; to: number; message: string }
  | { kind: "hold"; to: number; comment: number | undefined }
  | { kind: "keep"; to: number; reportHead: boolean; open: boolean; tryMerge: boolean; overrides: number }
  | { kind: "write"; to: number; update: number | undefined; overrides: number };

const done = (outcome: UpgradeOutcome): UpgradeDecision => ({ kind: "done", outcome });

/** Decides the next step from `facts` (pure; see the module comment). */
export function decideUpgrade(facts: UpgradeFacts): UpgradeDecision {
  const s = facts.status;
  if (!s) return { kind: "read", fact: "status" };
  if (s.kind === "blocked") return { kind: "report-blocked", reason: s.reason };
  if (s.kind === "none") return done({ kind: "not-downstream" });
  if (s.variant) return done({ kind: "owned-by-variant" });
  if (s.current === undefined) return done({ kind: "not-on-revision" });
  if (s.latest === undefined || s.latest > s.current) {
    if (facts.deletion === undefined) return { kind: "read", fact: "deletion" };
    if (facts.deletion) return { kind: "end-upgrades", deletion: facts.deletion };
  }
  if (s.latest === undefined) return done({ kind: "no-revision" });
  if (s.latest <= s.current) {
    if (facts.obsolete === undefined) return { kind: "read", fact: "obsolete" };
    if (facts.obsolete)
      return { kind: "close-obsolete", pull: facts.obsolete.number, current: s.current, latest: s.latest };
    return done({ kind: "up-to-date" });
  }
  const to = s.latest;
  const upgrade = facts.upgrade;
  if (!upgrade) return { kind: "read", fact: "upgrade" };
  if (!upgrade.ok) return { kind: "report-failure", to, message: upgrade.message };
  const draft = facts.draft;
  if (!draft) return { kind: "read", fact: "draft" };
  const { pull, branch } = draft;
  const overrides = upgrade.overrides;
  if (branch && !branch.ours) return { kind: "hold", to, comment: pull?.number };
  if (branch?.holdsUpgrade) {
    if (!pull && branch.rejected !== undefined) return done({ kind: "rejected", to, pull: branch.rejected });
    return {
      kind: "keep",
      to,
      reportHead: !branch.headReported,
      open: !pull,
      tryMerge: facts.autoMerge && !upgrade.needsReview && !pull?.draft,
      overrides,
    };
  }
  return { kind: "write", to, update: pull?.number, overrides };
}
