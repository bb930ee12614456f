/**
 * `.krmignore` (kpt): gitignore-style patterns, relative to the package directory holding the file,
 * naming paths that are not package content. Matched with `ignore`, the gitignore matcher most
 * tools use (kpt's kyaml uses a gitignore matcher too).
 */
import ignore from "ignore";

/** A compiled `.krmignore`: `ignores(relPath, isDir)` with relPath relative to the package root. */
export interface IgnoreMatcher {
  ignores(relPath: string, isDir: boolean): boolean;
}

/**
 * Parses `.krmignore` text (gitignore semantics: `#` comments, `!` negation, `/` anchoring, `*`, `**`,
 * `?`, a trailing `/` for directories). A path is ignored when it or one of its directories is.
 */
export function parseKrmignore(text: string): IgnoreMatcher {
  const matcher = ignore().add(text);
  return {
    ignores(relPath: string, isDir: boolean): boolean {
      const clean = relPath.replace(/^\.?\/+/, "");
      if (clean === "") return false;
      return matcher.ignores(isDir ? `${clean}/` : clean);
    },
  };
}
