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
 * A `.krmignore` that cannot be matched: a pattern too long for the matcher (`ignore` compiles each
 * pattern to a JavaScript RegExp, which V8 refuses beyond about 32,000 characters; kpt's Go matcher
 * has no such limit). `file` is the package-relative path of the `.krmignore`, `line` 1-based.
 */
export class KrmignoreError extends Error {
  override readonly name: string = "KrmignoreError";
  readonly file: string;
  readonly line: number | undefined;
  constructor(file: string, line: number | undefined, detail: string) {
    super(`${file}${line === undefined ? "" : ` line ${line}`}: ${detail}`);
    this.file = file;
    this.line = line;
  }
}

/** Lines longer than this are compiled alone first, to name the one the matcher refuses. */
const LONG_LINE = 1000;

function tooLong(length: number): string {
  return `pattern of ${length} characters is too long to match (porchlight's gitignore matcher compiles it to a regular expression); shorten or remove it`;
}

/** Compiles one long line on its own (negation stripped, so the rule is tested). */
function checkLine(file: string, line: string, number: number): void {
  try {
    ignore().add(line.replace(/^!/, "")).ignores("a");
  } catch (err) {
    if (err instanceof SyntaxError) throw new KrmignoreError(file, number, tooLong(line.length));
    throw err;
  }
}

/**
 * Parses `.krmignore` text (gitignore semantics: `#` comments, `!` negation, `/` anchoring, `*`, `**`,
 * `?`, a trailing `/` for directories). A path is ignored when it or one of its directories is.
 * `file` (default `.krmignore`) names the file in errors.
 * @throws KrmignoreError naming the file and line when a pattern is too long for the matcher (also
 *   from `ignores`, should the matcher refuse a pattern only when it is first used).
 */
export function parseKrmignore(text: string, file = ".krmignore"): IgnoreMatcher {
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.length > LONG_LINE) checkLine(file, line, i + 1);
  });
  const matcher = ignore().add(text);
  return {
    ignores(relPath: string, isDir: boolean): boolean {
      const clean = relPath.replace(/^\.?\/+/, "");
      if (clean === "") return false;
      try {
        return matcher.ignores(isDir ? `${clean}/` : clean);
      } catch (err) {
        if (err instanceof SyntaxError) throw new KrmignoreError(file, undefined, err.message);
        throw err;
      }
    },
  };
}
