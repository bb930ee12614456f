/**
 * `.krmignore` (kpt): gitignore-style patterns, relative to the package directory holding the file,
 * naming paths that are not package content.
 */

interface Rule {
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

/** A compiled `.krmignore`: `ignores(relPath, isDir)` with relPath relative to the package root. */
export interface IgnoreMatcher {
  ignores(relPath: string, isDir: boolean): boolean;
}

/** Parses `.krmignore` text (gitignore semantics: `#` comments, `!` negation, `/` anchoring, `*`, `**`, `?`). */
export function parseKrmignore(text: string): IgnoreMatcher {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    let negate = false;
    if (line.startsWith("!")) {
      negate = true;
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith("/")) {
      dirOnly = true;
      line = line.slice(0, -1);
    }
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    const body = globToRegex(line);
    const regex = new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`);
    rules.push({ regex, negate, dirOnly });
  }
  return {
    ignores(relPath: string, isDir: boolean): boolean {
      // A path is ignored when it, or one of its parent directories, matches.
      const parts = relPath.split("/");
      for (let i = 1; i <= parts.length; i++) {
        const sub = parts.slice(0, i).join("/");
        const subIsDir = i < parts.length || isDir;
        if (matchRules(rules, sub, subIsDir)) return true;
      }
      return false;
    },
  };
}

function matchRules(rules: Rule[], path: string, isDir: boolean): boolean {
  let ignored = false;
  for (const rule of rules) {
    if (rule.dirOnly && !isDir) continue;
    if (rule.regex.test(path)) ignored = !rule.negate;
  }
  return ignored;
}

function globToRegex(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") {
      if (glob[i + 1] === "*") {
        i++;
        if (glob[i + 1] === "/") {
          i++;
          out += "(?:.*/)?";
        } else {
          out += ".*";
        }
      } else {
        out += "[^/]*";
      }
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "\\" && i + 1 < glob.length) {
      i++;
      out += escapeRegex(glob[i]);
    } else {
      out += escapeRegex(c);
    }
  }
  return out;
}

function escapeRegex(c: string): string {
  return /[.+^${}()|[\]\\]/.test(c) ? `\\${c}` : c;
}
