/**
 * The `porchlight/upgrade` report of a downstream package whose upstream is not read: its URL is
 * refused, or its repository is not granted or has not consented (see lifecycle/upstream-consent.ts).
 */
import { createHash } from "node:crypto";
import type { CheckOutput } from "../github/port.js";

/** The check output: no upgrade comes for `pkg`, and why (`reason`, one sentence). */
export function upgradeBlockedOutput(options: { pkg: string; reason: string }): CheckOutput {
  return {
    title: `No upgrade for ${options.pkg}: its upstream is not read`,
    summary: `porchlight does not read the upstream of \`${options.pkg}\`, so no upgrade pull request comes for it.\n\n${options.reason}`,
  };
}

/** The run's external id: one run per package and reason on a commit (`upgrade-blocked <pkg> <hash>`). */
export function upgradeBlockedId(pkg: string, reason: string): string {
  return `upgrade-blocked ${pkg} ${createHash("sha256").update(reason).digest("hex").slice(0, 12)}`;
}
