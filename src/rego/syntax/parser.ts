/**
 * The Rego parser (OPA's `ast.Parser`): modules (package, imports, rules in v0 and v1 syntax) and queries.
 * Keywords `if`, `contains`, `in`, `every` are on in v1 modules (regoVersion v1 or `import rego.v1`) and
 * per `import future.keywords[.kw]` in v0 ones. Errors are `rego_parse_error`s with file:line:col.
 */
import { RegoCompileError } from "../errors.js";
import type { Import, Literal, Module, Rule } from "./ast.js";
import { RuleParser } from "./rules.js";
import { scan } from "./scanner.js";

const KEYWORDS = ["if", "contains", "in", "every"] as const;

/** A module: `package`, imports (`rego.v1` and `future.keywords` switch keywords on), rules. */
class Parser extends RuleParser {
  module(defaultV1: boolean): Module {
    if (defaultV1) this.enableV1();
    if (!this.isIdent("package")) this.err("package expected");
    const pkgTok = this.next();
    const pkgRef = this.ref(false);
    const pkg = this.refNames(pkgRef, "package");
    const imports: Import[] = [];
    let sawRegoV1 = false;
    let sawFuture = false;
    while (this.isIdent("import")) {
      const it = this.next();
      const path = this.ref(false);
      const names = this.refNames(path, "import");
      let alias: string | undefined;
      if (this.isIdent("as")) {
        this.next();
        if (this.tok.kind !== "ident") this.unexpected();
        alias = this.next().text;
      }
      const head = names[0];
      if (head === "rego") {
        if (names.length !== 2 || names[1] !== "v1") this.err(`invalid import \`${names.join(".")}\``, it);
        if (sawRegoV1 || sawFuture) this.err("this import shadows previous import", it);
        sawRegoV1 = true;
        this.enableV1();
        continue;
      }
      if (head === "future") {
        if (names[1] !== "keywords" || names.length > 3)
          this.err(`invalid import, must be \`future.keywords\``, it);
        if (sawRegoV1) this.err("this import shadows previous import", it);
        sawFuture = true;
        const kw = names[2];
        if (kw === undefined) for (const k of KEYWORDS) this.kw.add(k);
        else if ((KEYWORDS as readonly string[]).includes(kw)) this.kw.add(kw);
        else this.err(`unexpected keyword, must be one of [contains every if in]`, it);
        continue;
      }
      if (head !== "data" && head !== "input")
        this.err(`invalid import path: import path must begin with one of: {data, future, input, rego}`, it);
      imports.push({ path, names, alias, pos: this.pos(it) });
    }
    const rules: Rule[] = [];
    while (this.tok.kind !== "eof") rules.push(...this.rule());
    return { file: this.file, pkg, pkgPos: this.pos(pkgTok), imports, rules, v1: this.v1 };
  }

  enableV1(): void {
    this.v1 = true;
    for (const k of KEYWORDS) this.kw.add(k);
  }
}

/** Parses a module. `v1` selects Rego v1 for it (else v0, upgraded by `import rego.v1`). */
export function parseModule(file: string, source: string, v1: boolean): Module {
  const p = new Parser(file, scan(file, source));
  try {
    return p.module(v1);
  } catch (e) {
    if (e instanceof RangeError)
      throw new RegoCompileError(
        { file, line: 1, col: 1 },
        "module is too deeply nested",
        "rego_parse_error",
      );
    throw e;
  }
}

/** Parses a query (literals separated by `;` or newlines); keywords per `v1` (all on) or v0 (future.keywords on). */
export function parseQuery(source: string, v1: boolean): Literal[] {
  const p = new Parser("query", scan("query", source));
  for (const k of KEYWORDS) p.kw.add(k);
  if (v1) p.v1 = true;
  const lits = p.literals("");
  if (p.tok.kind !== "eof") p.unexpected();
  if (lits.length === 0) p.err("empty query");
  return lits;
}
