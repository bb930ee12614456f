/**
 * The app's render commit message: the subject names the packages (`Render apps/web, apps/db`), or
 * counts them (`Render 12 packages`) when there are more than {@link SUBJECT_PACKAGE_LIMIT} — then the
 * body lists them, one a line; it ends with the `Rendered-From: <sha>` trailer, which is also how the
 * app recognises its own commits (the loop guard). Pure.
 */
import type { PackageReport } from "./annotations.js";

/** The commit trailer naming the commit a render commit was rendered from. */
export const RENDERED_FROM = "Rendered-From";

/** Up to this many packages are named in the commit subject; more are listed in the body only. */
export const SUBJECT_PACKAGE_LIMIT = 3;

/** True when `message` carries a `Rendered-From:` trailer (the app's own render commit). */
export function isRenderCommit(message: string | undefined): boolean {
  return new RegExp(`^${RENDERED_FROM}: [0-9a-f]{7,64}\\s*$`, "m").test(message ?? "");
}

/** The render commit's message for `packages` rendered from `sha`. */
export function renderCommitMessage(options: { packages: PackageReport[]; sha: string }): string {
  const names = options.packages.map((p) => p.packagePath || ".");
  const failed = options.packages.filter((p) => !p.result.ok).map((p) => p.packagePath || ".");
  const many = names.length > SUBJECT_PACKAGE_LIMIT;
  const subject = many ? `Render ${names.length} packages` : `Render ${names.join(", ")}`;
  const failedNames = failed.length > SUBJECT_PACKAGE_LIMIT ? `${failed.length} packages` : failed.join(", ");
  const status = failed.length
    ? `Rendering failed for ${failedNames}; stored with the Kptfile status (pushOnFailure).`
    : "Rendered by porchlight (kpt fn render).";
  const list = many ? `\n\nPackages:\n${names.map((n) => `- ${n}`).join("\n")}` : "";
  return `${subject}\n\n${status}${list}\n\n${RENDERED_FROM}: ${options.sha}\n`;
}
