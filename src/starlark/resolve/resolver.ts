/**
 * The Starlark name resolver (go.starlark.net/resolve): binds every identifier to a local, cell,
 * free, global, predeclared or universal slot, and reports the static errors (undefined names,
 * reassignment, misplaced statements, malformed parameter and argument lists) with
 * go.starlark.net's messages. All errors are collected; the first is the thrown error's message.
 */
import { nearest } from "../internal/spell.js";
import {
  type Binding,
  type Comprehension,
  type Expr,
  type File,
  type FileOptions,
  formatPos,
  type Ident,
  type Pos,
  type ResolvedFunction,
  SCOPE_NAMES,
  Scope,
  StarlarkResolveError,
  StarlarkSyntaxError,
  type Stmt,
  startPos,
  T,
  tokenString,
} from "../syntax/syntax.js";

const DOESNT = "this Starlark dialect does not ";

interface Use {
  id: Ident;
  env: Block;
}

class Block {
  parent: Block | null = null;
  bindings = new Map<string, Binding>();
  children: Block[] = [];
  uses: Use[] = [];
  constructor(
    readonly fn: ResolvedFunction | null,
    readonly comp: Comprehension | null,
  ) {}
}

const ASSIGN_KIND_NAMES: Record<string, string> = {
  Literal: "literal",
  BinaryExpr: "binaryexpr",
  CallExpr: "callexpr",
  CondExpr: "condexpr",
  UnaryExpr: "unaryexpr",
  Comprehension: "comprehension",
  DictExpr: "dictexpr",
  LambdaExpr: "lambdaexpr",
  SliceExpr: "sliceexpr",
};

class Resolver {
  env: Block;
  readonly file: Block;
  readonly moduleLocals: Binding[] = [];
  readonly moduleGlobals: Binding[] = [];
  readonly globals = new Map<string, Binding>();
  readonly predeclared = new Map<string, Binding>();
  loops = 0;
  ifstmts = 0;
  readonly errors: StarlarkSyntaxError[] = [];

  constructor(
    readonly path: string,
    readonly options: FileOptions,
    readonly isGlobal: ((name: string) => boolean) | null,
    readonly isPredeclared: (name: string) => boolean,
    readonly isUniversal: (name: string) => boolean,
  ) {
    this.file = new Block(null, null);
    this.env = this.file;
  }

  errorf(pos: Pos, msg: string): void {
    this.errors.push(new StarlarkSyntaxError(this.path, pos, msg));
  }

  container(): Block {
    for (let b: Block = this.env; ; b = b.parent!) {
      if (b.fn !== null || b === this.file) return b;
    }
  }

  push(b: Block): void {
    this.env.children.push(b);
    b.parent = this.env;
    this.env = b;
  }

  pop(): void {
    this.env = this.env.parent!;
  }

  /** Binds `id` in the current block; reports whether it was already bound there. */
  bind(id: Ident): boolean {
    if (this.env === this.file) {
      let bind = this.file.bindings.get(id.name);
      let ok = bind !== undefined;
      if (!ok) {
        bind = this.globals.get(id.name);
        ok = bind !== undefined;
        if (!ok) {
          bind = { scope: Scope.Global, index: this.moduleGlobals.length, first: id };
          this.globals.set(id.name, bind);
          this.moduleGlobals.push(bind);
        }
      }
      if (ok && !this.options.globalReassign) {
        this.errorf(
          id.pos,
          `cannot reassign ${SCOPE_NAMES[bind!.scope]} ${id.name} declared at ${formatPos(this.path, bind!.first!.pos)}`,
        );
      }
      id.binding = bind!;
      return ok;
    }
    return this.bindLocal(id);
  }

  bindLocal(id: Ident): boolean {
    const ok = this.env.bindings.has(id.name);
    if (!ok) {
      const fn = this.container().fn;
      const locals = fn !== null ? fn.locals : this.moduleLocals;
      const bind: Binding = { scope: Scope.Local, index: locals.length, first: id };
      this.env.bindings.set(id.name, bind);
      locals.push(bind);
    }
    this.use(id);
    return ok;
  }

  use(id: Ident): void {
    const use: Use = { id, env: this.env };
    if (this.options.globalReassign && this.env === this.file) {
      this.useToplevel(use);
      return;
    }
    this.container().uses.push(use);
  }

  useToplevel(use: Use): Binding {
    const id = use.id;
    let bind: Binding | undefined = this.file.bindings.get(id.name) ?? this.globals.get(id.name);
    if (bind === undefined) {
      if (this.isGlobal?.(id.name)) {
        bind = { scope: Scope.Global, index: this.moduleGlobals.length, first: id };
        this.globals.set(id.name, bind);
        this.moduleGlobals.push(bind);
      } else if (this.predeclared.has(id.name)) {
        bind = this.predeclared.get(id.name)!;
      } else if (this.isPredeclared(id.name)) {
        bind = { scope: Scope.Predeclared, index: 0, first: null };
        this.predeclared.set(id.name, bind);
      } else if (this.isUniversal(id.name)) {
        if (!this.options.set && id.name === "set") this.errorf(id.pos, `${DOESNT}support sets`);
        bind = { scope: Scope.Universal, index: 0, first: null };
        this.predeclared.set(id.name, bind);
      } else {
        bind = { scope: Scope.Undefined, index: 0, first: null };
        const n = this.spellcheck(use);
        this.errorf(id.pos, `undefined: ${id.name}${n !== "" ? ` (did you mean ${n}?)` : ""}`);
      }
    }
    id.binding = bind;
    return bind;
  }

  spellcheck(use: Use): string {
    const names: string[] = [];
    for (let b: Block | null = use.env; b !== null; b = b.parent) {
      for (const name of b.bindings.keys()) names.push(name);
    }
    for (const b of this.moduleGlobals) names.push(b.first!.name);
    names.sort();
    return nearest(use.id.name, names);
  }

  stmts(stmts: Stmt[]): void {
    for (const s of stmts) this.stmt(s);
  }

  stmt(stmt: Stmt): void {
    switch (stmt.kind) {
      case "ExprStmt":
        this.expr(stmt.x);
        break;
      case "BranchStmt":
        if (this.loops === 0 && (stmt.token === T.BREAK || stmt.token === T.CONTINUE)) {
          this.errorf(stmt.pos, `${tokenString(stmt.token)} not in a loop`);
        }
        break;
      case "IfStmt":
        if (!this.options.topLevelControl && this.container().fn === null) {
          this.errorf(stmt.ifPos, "if statement not within a function");
        }
        this.expr(stmt.cond);
        this.ifstmts++;
        this.stmts(stmt.trueBody);
        this.stmts(stmt.falseBody);
        this.ifstmts--;
        break;
      case "AssignStmt":
        this.expr(stmt.rhs);
        this.assign(stmt.lhs, stmt.op !== T.EQ);
        break;
      case "DefStmt": {
        this.bind(stmt.name);
        const fn = newFunction(stmt.name.name, stmt.defPos, stmt.params, stmt.body);
        stmt.fn = fn;
        this.function(fn);
        break;
      }
      case "ForStmt":
        if (!this.options.topLevelControl && this.container().fn === null) {
          this.errorf(stmt.forPos, "for loop not within a function");
        }
        this.expr(stmt.x);
        this.assign(stmt.vars, false);
        this.loops++;
        this.stmts(stmt.body);
        this.loops--;
        break;
      case "WhileStmt":
        if (!this.options.while) this.errorf(stmt.whilePos, `${DOESNT}support while loops`);
        if (!this.options.topLevelControl && this.container().fn === null) {
          this.errorf(stmt.whilePos, "while loop not within a function");
        }
        this.expr(stmt.cond);
        this.loops++;
        this.stmts(stmt.body);
        this.loops--;
        break;
      case "ReturnStmt":
        if (this.container().fn === null)
          this.errorf(stmt.returnPos, "return statement not within a function");
        if (stmt.result !== null) this.expr(stmt.result);
        break;
      case "LoadStmt": {
        if (this.container().fn !== null) this.errorf(stmt.loadPos, "load statement within a function");
        else if (this.loops > 0) this.errorf(stmt.loadPos, "load statement within a loop");
        else if (this.ifstmts > 0) this.errorf(stmt.loadPos, "load statement within a conditional");
        stmt.from.forEach((from, i) => {
          if (from.name === "") {
            this.errorf(from.pos, "load: empty identifier");
            return;
          }
          if (from.name[0] === "_") {
            this.errorf(from.pos, `load: names with leading underscores are not exported: ${from.name}`);
          }
          const id = stmt.to[i]!;
          if (this.options.loadBindsGlobally) {
            this.bind(id);
          } else if (this.bindLocal(id) && !this.options.globalReassign) {
            this.errorf(id.pos, `cannot reassign top-level ${id.name}`);
          }
        });
        break;
      }
    }
  }

  assign(lhs: Expr, isAugmented: boolean): void {
    switch (lhs.kind) {
      case "Ident":
        this.bind(lhs);
        return;
      case "IndexExpr":
        this.expr(lhs.x);
        this.expr(lhs.y);
        return;
      case "DotExpr":
        this.expr(lhs.x);
        return;
      case "TupleExpr":
        if (isAugmented) this.errorf(startPos(lhs), "can't use tuple expression in augmented assignment");
        for (const e of lhs.list) this.assign(e, isAugmented);
        return;
      case "ListExpr":
        if (isAugmented) this.errorf(startPos(lhs), "can't use list expression in augmented assignment");
        for (const e of lhs.list) this.assign(e, isAugmented);
        return;
      case "ParenExpr":
        this.assign(lhs.x, isAugmented);
        return;
      default:
        this.errorf(
          startPos(lhs),
          `can't assign to ${ASSIGN_KIND_NAMES[lhs.kind] ?? lhs.kind.toLowerCase()}`,
        );
    }
  }

  expr(e: Expr): void {
    switch (e.kind) {
      case "Ident":
        this.use(e);
        return;
      case "Literal":
        return;
      case "ListExpr":
      case "TupleExpr":
        for (const x of e.list) this.expr(x);
        return;
      case "CondExpr":
        this.expr(e.cond);
        this.expr(e.t);
        this.expr(e.f);
        return;
      case "IndexExpr":
        this.expr(e.x);
        this.expr(e.y);
        return;
      case "SliceExpr":
        this.expr(e.x);
        if (e.lo) this.expr(e.lo);
        if (e.hi) this.expr(e.hi);
        if (e.step) this.expr(e.step);
        return;
      case "Comprehension": {
        const clause = e.clauses[0]!;
        if (clause.kind === "ForClause") this.expr(clause.x);
        this.push(new Block(null, e));
        if (clause.kind === "ForClause") this.assign(clause.vars, false);
        for (const c of e.clauses.slice(1)) {
          if (c.kind === "IfClause") {
            this.expr(c.cond);
          } else {
            this.assign(c.vars, false);
            this.expr(c.x);
          }
        }
        if (e.body.kind === "DictEntry") {
          this.expr(e.body.key);
          this.expr(e.body.value);
        } else {
          this.expr(e.body);
        }
        this.pop();
        return;
      }
      case "DictExpr":
        for (const entry of e.list) {
          this.expr(entry.key);
          this.expr(entry.value);
        }
        return;
      case "UnaryExpr":
        if (e.x) this.expr(e.x);
        return;
      case "BinaryExpr":
        this.expr(e.x);
        this.expr(e.y);
        return;
      case "DotExpr":
        this.expr(e.x);
        return;
      case "CallExpr": {
        this.expr(e.fn);
        let seenVarargs = false;
        let seenKwargs = false;
        const seenName = new Set<string>();
        let n = 0;
        let p = 0;
        for (const arg of e.args) {
          const pos = startPos(arg);
          if (arg.kind === "UnaryExpr" && arg.op === T.STARSTAR) {
            if (seenKwargs) this.errorf(pos, "multiple **kwargs not allowed");
            seenKwargs = true;
            this.expr(arg);
          } else if (arg.kind === "UnaryExpr" && arg.op === T.STAR) {
            if (seenKwargs) this.errorf(pos, "*args may not follow **kwargs");
            else if (seenVarargs) this.errorf(pos, "multiple *args not allowed");
            seenVarargs = true;
            this.expr(arg);
          } else if (arg.kind === "BinaryExpr" && arg.op === T.EQ) {
            n++;
            if (seenKwargs) this.errorf(pos, "keyword argument may not follow **kwargs");
            else if (seenVarargs) this.errorf(pos, "keyword argument may not follow *args");
            const x = arg.x as Ident;
            if (seenName.has(x.name)) this.errorf(x.pos, `keyword argument "${x.name}" is repeated`);
            else seenName.add(x.name);
            this.expr(arg.y);
          } else {
            p++;
            if (seenVarargs) this.errorf(pos, "positional argument may not follow *args");
            else if (seenKwargs) this.errorf(pos, "positional argument may not follow **kwargs");
            else if (seenName.size > 0) this.errorf(pos, "positional argument may not follow named");
            this.expr(arg);
          }
        }
        if (p >= 256) this.errorf(startPos(e), `${p} positional arguments in call, limit is 255`);
        if (n >= 256) this.errorf(startPos(e), `${n} keyword arguments in call, limit is 255`);
        return;
      }
      case "LambdaExpr": {
        const fn = newFunction("lambda", e.lambdaPos, e.params, [
          { kind: "ReturnStmt", returnPos: 0, result: e.body },
        ]);
        e.fn = fn;
        this.function(fn);
        return;
      }
      case "ParenExpr":
        this.expr(e.x);
        return;
    }
  }

  function(fn: ResolvedFunction): void {
    for (const param of fn.params) {
      if (param.kind === "BinaryExpr") this.expr(param.y);
    }
    const b = new Block(fn, null);
    this.push(b);
    const outerLoops = this.loops;
    this.loops = 0;

    let seenOptional = false;
    let star: { opPos: Pos; x: Expr | null } | null = null;
    let starStar: Ident | null = null;
    let numKwonlyParams = 0;
    for (const param of fn.params) {
      if (param.kind === "Ident") {
        if (starStar !== null) {
          this.errorf(param.pos, `required parameter may not follow **${starStar.name}`);
        } else if (star !== null) {
          numKwonlyParams++;
        } else if (seenOptional) {
          this.errorf(param.pos, "required parameter may not follow optional");
        }
        if (this.bind(param)) this.errorf(param.pos, `duplicate parameter: ${param.name}`);
      } else if (param.kind === "BinaryExpr") {
        if (starStar !== null) {
          this.errorf(param.opPos, `optional parameter may not follow **${starStar.name}`);
        } else if (star !== null) {
          numKwonlyParams++;
        }
        const id = param.x as Ident;
        if (this.bind(id)) this.errorf(param.opPos, `duplicate parameter: ${id.name}`);
        seenOptional = true;
      } else if (param.kind === "UnaryExpr") {
        if (param.op === T.STAR) {
          if (starStar !== null) this.errorf(param.opPos, `* parameter may not follow **${starStar.name}`);
          else if (star !== null) this.errorf(param.opPos, "multiple * parameters not allowed");
          else star = param;
        } else {
          if (starStar !== null) this.errorf(param.opPos, "multiple ** parameters not allowed");
          starStar = param.x as Ident;
        }
      }
    }
    if (star !== null) {
      if (star.x !== null && star.x.kind === "Ident") {
        if (this.bind(star.x)) this.errorf(star.x.pos, `duplicate parameter: ${star.x.name}`);
        fn.hasVarargs = true;
      } else if (numKwonlyParams === 0) {
        this.errorf(star.opPos, "bare * must be followed by keyword-only parameters");
      }
    }
    if (starStar !== null) {
      if (this.bind(starStar)) this.errorf(starStar.pos, `duplicate parameter: ${starStar.name}`);
      fn.hasKwargs = true;
    }
    fn.numKwonlyParams = numKwonlyParams;
    this.stmts(fn.body);
    resolveLocalUses(b);
    this.pop();
    this.loops = outerLoops;
  }

  resolveNonLocalUses(b: Block): void {
    for (const child of b.children) this.resolveNonLocalUses(child);
    for (const use of b.uses) use.id.binding = this.lookupLexical(use, use.env);
  }

  lookupLexical(use: Use, env: Block): Binding {
    if (env === this.file) return this.useToplevel(use);
    let bind = env.bindings.get(use.id.name);
    if (bind === undefined) {
      bind = this.lookupLexical(use, env.parent!);
      if (
        env.fn !== null &&
        (bind.scope === Scope.Local || bind.scope === Scope.Free || bind.scope === Scope.Cell)
      ) {
        if (bind.scope === Scope.Local) bind.scope = Scope.Cell;
        const index = env.fn.freeVars.length;
        env.fn.freeVars.push(bind);
        bind = { scope: Scope.Free, index, first: bind.first };
      }
      env.bindings.set(use.id.name, bind);
    }
    return bind;
  }
}

function newFunction(name: string, pos: Pos, params: Expr[], body: Stmt[]): ResolvedFunction {
  return {
    pos,
    name,
    params,
    body,
    hasVarargs: false,
    hasKwargs: false,
    numKwonlyParams: 0,
    locals: [],
    freeVars: [],
  };
}

function lookupLocal(use: Use): Binding | null {
  for (let env: Block | null = use.env; env !== null; env = env.parent) {
    const bind = env.bindings.get(use.id.name);
    if (bind !== undefined) return bind;
    if (env.fn !== null) break;
  }
  return null;
}

function resolveLocalUses(b: Block): void {
  const unresolved: Use[] = [];
  for (const use of b.uses) {
    const bind = lookupLocal(use);
    if (bind !== null && (bind.scope === Scope.Local || bind.scope === Scope.Cell)) {
      use.id.binding = bind;
    } else {
      unresolved.push(use);
    }
  }
  b.uses = unresolved;
}

/**
 * Resolves a parsed file in place (go.starlark.net's resolve.File). `isPredeclared` and
 * `isUniversal` report the module-specific and universal names. Throws {@link StarlarkResolveError}
 * listing every error.
 */
export function resolveFile(
  file: File,
  isPredeclared: (name: string) => boolean,
  isUniversal: (name: string) => boolean,
  isGlobal: ((name: string) => boolean) | null = null,
): void {
  const errors = resolveFileErrors(file, isPredeclared, isUniversal, isGlobal);
  if (errors.length > 0) throw new StarlarkResolveError(errors);
}

/** Like {@link resolveFile} but returns the errors instead of throwing. */
export function resolveFileErrors(
  file: File,
  isPredeclared: (name: string) => boolean,
  isUniversal: (name: string) => boolean,
  isGlobal: ((name: string) => boolean) | null = null,
): StarlarkSyntaxError[] {
  const r = new Resolver(file.path, file.options, isGlobal, isPredeclared, isUniversal);
  r.stmts(file.stmts);
  resolveLocalUses(r.env);
  r.resolveNonLocalUses(r.env);
  file.locals = r.moduleLocals;
  file.globals = r.moduleGlobals;
  return r.errors;
}

/** Resolves a standalone expression; returns its (comprehension) locals. */
export function resolveExpr(
  path: string,
  expr: Expr,
  options: FileOptions,
  isPredeclared: (name: string) => boolean,
  isUniversal: (name: string) => boolean,
): Binding[] {
  const r = new Resolver(path, options, null, isPredeclared, isUniversal);
  r.expr(expr);
  resolveLocalUses(r.env);
  r.resolveNonLocalUses(r.env);
  if (r.errors.length > 0) throw new StarlarkResolveError(r.errors);
  return r.moduleLocals;
}
