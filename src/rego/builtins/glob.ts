/** OPA's `glob.*` builtins: gobwas/glob patterns compiled to RE2. */
import { BuiltinError } from "../errors.js";
import type { Value } from "../values.js";
import { re } from "./regex.js";
import { def, str, typeErr } from "./registry.js";

function escapeRe(c: string): string {
  return /[\\^$.|?*+()[\]{}]/.test(c) ? `\\${c}` : c;
}

/** A glob pattern being compiled: the text, the offset, the class of a non-delimiter character. */
interface Glob {
  readonly pattern: string;
  readonly notDelim: string;
  i: number;
}

/** `[abc]`, `[!abc]`, `[a-z]`: a character class. */
function charClass(g: Glob): string {
  const end = g.pattern.indexOf("]", g.i + 1);
  if (end < 0) throw new BuiltinError("glob.match: unexpected end of input");
  let body = g.pattern.slice(g.i + 1, end);
  const neg = body.startsWith("!");
  if (neg) body = body.slice(1);
  g.i = end + 1;
  return `[${neg ? "^" : ""}${body.replace(/\\/g, "\\\\")}]`;
}

/** `{a,b,c}`: alternatives, each a pattern. */
function alternatives(g: Glob): string {
  g.i++;
  const alts: string[] = [];
  for (;;) {
    alts.push(sequence(g, true));
    if (g.pattern[g.i] === ",") {
      g.i++;
      continue;
    }
    if (g.pattern[g.i] === "}") {
      g.i++;
      break;
    }
    throw new BuiltinError("glob.match: unexpected end of input");
  }
  return `(?:${alts.join("|")})`;
}

/** One element at the offset: an escape, `**`, `*`, `?`, a class, alternatives or a literal character. */
function element(g: Glob): string {
  const { pattern } = g;
  const c = pattern[g.i] as string;
  if (c === "\\") {
    g.i++;
    return g.i < pattern.length ? escapeRe(pattern[g.i++] as string) : "";
  }
  if (c === "*") {
    const super_ = pattern[g.i + 1] === "*";
    g.i += super_ ? 2 : 1;
    return super_ ? "[\\s\\S]*" : `${g.notDelim}*`;
  }
  if (c === "?") {
    g.i++;
    return g.notDelim;
  }
  if (c === "[") return charClass(g);
  if (c === "{") return alternatives(g);
  g.i++;
  return escapeRe(c);
}

/** Elements up to the end, or (inside alternatives) up to a `,` or `}`. */
function sequence(g: Glob, inAlt: boolean): string {
  let s = "";
  while (g.i < g.pattern.length) {
    const c = g.pattern[g.i];
    if (inAlt && (c === "," || c === "}")) return s;
    s += element(g);
  }
  return s;
}

/** Compiles a gobwas/glob pattern (OPA's glob.match) into an RE2 pattern. */
export function globToRe(pattern: string, delims: string[]): string {
  const d = delims.map(escapeRe).join("");
  const notDelim = d === "" ? "[\\s\\S]" : `[^${d}]`;
  return `^${sequence({ pattern, notDelim, i: 0 }, false)}$`;
}

def("glob.match", 3, (a) => {
  const pattern = str("glob.match", a, 0);
  const dv = a[1] as Value;
  let delims: string[];
  if (dv === null) delims = [];
  else if (Array.isArray(dv)) {
    delims = dv.map((x) => {
      if (typeof x !== "string") throw typeErr("glob.match", 1, "array of strings", x);
      return x;
    });
    if (delims.length === 0) delims = ["."];
  } else throw typeErr("glob.match", 1, "array", dv);
  const m = str("glob.match", a, 2);
  return re("glob.match", globToRe(pattern, delims)).test(m);
});
def("glob.quote_meta", 1, (a) => str("glob.quote_meta", a, 0).replace(/[*?\\[\]{}]/g, (c) => `\\${c}`));
