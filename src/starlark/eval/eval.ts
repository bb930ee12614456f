/**
 * The Starlark evaluator: compiles a resolved syntax tree into JS closures (names resolved to slots
 * at compile time, no per-step allocation beyond what values need) and runs them
 * (go.starlark.net's compile + interp). Functions, calls and argument binding, module
 * initialization and `load` live here.
 */
import { nearest } from "../internal/spell.js";
import { fromBytes } from "../internal/utf8.js";
import {
  type AssignStmt,
  type Binding,
  type CallExpr,
  type Comprehension,
  type DictEntry,
  type Expr,
  type File,
  type ForClause,
  type Ident,
  type IfClause,
  type Pos,
  type ResolvedFunction,
  Scope,
  type Stmt,
  T,
  type Token,
  unparen,
} from "../syntax/syntax.js";
import { callValue, type StackEntry, type Thread } from "./thread.js";
import {
  type Builtin,
  Bytes,
  binary,
  Cell,
  compare,
  Dict,
  equal,
  Float,
  fail,
  freeze,
  getAttr,
  getIndex,
  intAdd,
  type Key,
  type Kwargs,
  List,
  length,
  methodTable,
  None,
  Range,
  repr,
  StarlarkError,
  SValue,
  setField,
  setIndex,
  slice,
  Tuple,
  truth,
  typeName,
  unary,
  type Value,
} from "./values.js";

const NORMAL = 0;
const BREAK = 1;
const CONTINUE = 2;
const RETURN = 3;

type Ev = (fr: Frame) => Value;
type Ex = (fr: Frame) => number;
type Cond = (fr: Frame) => boolean;
type Assign = (fr: Frame, v: Value) => void;

/** A Starlark function activation: the frame of a call on the thread's stack. */
export class Frame implements StackEntry {
  readonly locals: (Value | Cell | undefined)[];
  readonly g: (Value | undefined)[];
  readonly name: string;
  readonly file: string;
  pos: Pos;
  ret: Value = None;
  constructor(
    readonly th: Thread,
    readonly fn: StarlarkFunction,
  ) {
    const code = fn.code;
    this.locals = new Array(code.nlocals);
    this.g = fn.module.globals;
    this.name = code.name;
    this.file = code.file;
    this.pos = code.entryPos;
  }
}

/** Sentinel default for keyword-only parameters without a default. */
const MANDATORY = Symbol("mandatory");

/** Compiled code of a function (or of a module's top level). */
export class FuncCode {
  numParams = 0;
  numKwonly = 0;
  hasVarargs = false;
  hasKwargs = false;
  nlocals = 0;
  /** no *args, **kwargs or keyword-only parameters: positional calls bind directly */
  simpleParams = false;
  localNames: string[] = [];
  cells: number[] = [];
  freeVarNames: string[] = [];
  body: Ex = () => NORMAL;
  doc = "";
  /** activations in progress (for the recursion check) */
  active = 0;
  /** position of a new activation before its first step (go.starlark.net: that of instruction 0) */
  entryPos: Pos;
  constructor(
    readonly name: string,
    readonly file: string,
    readonly pos: Pos,
    readonly recursion: boolean,
  ) {
    this.entryPos = pos;
  }
}

/** A module instance: its globals, predeclared values and the compiled program. */
export class ModuleInstance {
  readonly globals: (Value | undefined)[];
  readonly predeclared: (Value | undefined)[];
  constructor(
    readonly program: Program,
    predeclared: ReadonlyMap<string, Value>,
  ) {
    this.globals = new Array(program.globalNames.length);
    this.predeclared = program.predeclaredNames.map((n) => predeclared.get(n));
  }
  /** The module's bound globals by name. */
  globalsMap(): Map<string, Value> {
    const m = new Map<string, Value>();
    this.program.globalNames.forEach((name, i) => {
      const v = this.globals[i];
      if (v !== undefined) m.set(name, v);
    });
    return m;
  }
}

/** A function defined in Starlark (def or lambda). */
export class StarlarkFunction extends SValue {
  readonly pushesFrame = true;
  constructor(
    readonly code: FuncCode,
    readonly module: ModuleInstance,
    readonly defaults: (Value | typeof MANDATORY)[],
    readonly freevars: Cell[],
  ) {
    super();
    this.name = code.name;
  }
  typeName(): string {
    return "function";
  }
  override repr(): string {
    return `<function ${this.code.name}>`;
  }
  override hashKey(): Key {
    return this;
  }
  override freeze(): void {
    for (const d of this.defaults) if (d !== MANDATORY) freeze(d);
    for (const c of this.freevars) if (c.v !== undefined) freeze(c.v);
  }
  /** The function's doc string (first statement string literal), or "". */
  get doc(): string {
    return this.code.doc;
  }
  override callInternal(th: Thread, args: Value[], kwargs: Kwargs | null): Value {
    const code = this.code;
    const fr = new Frame(th, this);
    th.stack.push(fr);
    // Checked in the callee's frame, as go.starlark.net does: the backtrace ends in it.
    if (code.active > 0 && !code.recursion) fail(`function ${code.name} called recursively`);
    const locals = fr.locals;
    if (kwargs === null && args.length === code.numParams && code.simpleParams) {
      for (let i = 0; i < args.length; i++) locals[i] = args[i];
    } else {
      setArgs(locals, this, args, kwargs);
    }
    const cells = code.cells;
    for (let i = 0; i < cells.length; i++) {
      const c = new Cell();
      const idx = cells[i]!;
      c.v = locals[idx] as Value | undefined;
      locals[idx] = c;
    }
    code.active++;
    try {
      return code.body(fr) === RETURN ? fr.ret : None;
    } finally {
      code.active--;
    }
  }
}

function setArgs(
  locals: (Value | Cell | undefined)[],
  fn: StarlarkFunction,
  args: Value[],
  kwargs: Kwargs | null,
): void {
  const code = fn.code;
  const name = code.name;
  const nkw = kwargs === null ? 0 : kwargs.length;
  if (code.numParams === 0) {
    const n = args.length + nkw;
    if (n > 0) fail(`function ${name} accepts no arguments (${n} given)`);
    return;
  }
  let nparams = code.numParams;
  let kwdict: Dict | null = null;
  if (code.hasKwargs) {
    nparams--;
    kwdict = new Dict();
    locals[nparams] = kwdict;
  }
  if (code.hasVarargs) nparams--;
  const nonkwonly = nparams - code.numKwonly;
  let n = args.length;
  if (args.length > nonkwonly) {
    if (!code.hasVarargs) {
      fail(
        `function ${name} accepts ${fn.defaults.length > code.numKwonly ? "at most " : ""}${nonkwonly} positional argument${nonkwonly === 1 ? "" : "s"} (${args.length} given)`,
      );
    }
    n = nonkwonly;
  }
  for (let i = 0; i < n; i++) locals[i] = args[i];
  if (code.hasVarargs) locals[nparams] = new Tuple(args.slice(n));
  if (kwargs !== null) {
    const names = code.localNames;
    for (const [k, v] of kwargs) {
      let i = -1;
      for (let j = 0; j < nparams; j++) {
        if (names[j] === k) {
          i = j;
          break;
        }
      }
      if (i >= 0) {
        if (locals[i] !== undefined) fail(`function ${name} got multiple values for parameter ${repr(k)}`);
        locals[i] = v;
        continue;
      }
      if (kwdict === null) fail(`function ${name} got an unexpected keyword argument ${repr(k)}`);
      const oldlen = kwdict.map.size;
      kwdict.setKey(k, v);
      if (kwdict.map.size === oldlen) fail(`function ${name} got multiple values for parameter ${repr(k)}`);
    }
  }
  if (n < nparams || code.numKwonly > 0) {
    const defaults = fn.defaults;
    const m = nparams - defaults.length;
    const missing: string[] = [];
    let i = n;
    for (; i < m; i++) if (locals[i] === undefined) missing.push(code.localNames[i]!);
    for (; i < nparams; i++) {
      if (locals[i] === undefined) {
        const d = defaults[i - m]!;
        if (d === MANDATORY) {
          missing.push(code.localNames[i]!);
          continue;
        }
        locals[i] = d;
      }
    }
    if (missing.length > 0) {
      fail(
        `function ${name} missing ${missing.length} argument${missing.length > 1 ? "s" : ""} (${missing.join(", ")})`,
      );
    }
  }
}

/** A compiled Starlark program: one file, ready to be initialized with predeclared values. */
export class Program {
  toplevel!: FuncCode;
  readonly globalNames: string[];
  readonly predeclaredNames: string[] = [];
  private readonly predeclaredIndex = new Map<string, number>();
  /** the modules this program loads, in order */
  readonly loads: string[] = [];

  constructor(
    readonly filename: string,
    file: File,
    readonly universe: ReadonlyMap<string, Value>,
  ) {
    this.globalNames = file.globals.map((b) => b.first!.name);
  }

  predeclaredSlot(name: string): number {
    let i = this.predeclaredIndex.get(name);
    if (i === undefined) {
      i = this.predeclaredNames.length;
      this.predeclaredNames.push(name);
      this.predeclaredIndex.set(name, i);
    }
    return i;
  }

  /**
   * Executes the program's top level in a new module with the given predeclared values; returns
   * the module's globals, frozen. Throws StarlarkEvalError on failure (the globals are frozen regardless).
   */
  init(th: Thread, predeclared: ReadonlyMap<string, Value>): Map<string, Value> {
    const mod = new ModuleInstance(this, predeclared);
    const fn = new StarlarkFunction(this.toplevel, mod, [], []);
    try {
      callValue(th, fn, [], null);
    } finally {
      for (const v of mod.globals) if (v !== undefined) freeze(v);
    }
    return mod.globalsMap();
  }

  /** Runs the program's top level (an expression program) and returns its value. */
  evaluate(th: Thread, predeclared: ReadonlyMap<string, Value>): Value {
    const mod = new ModuleInstance(this, predeclared);
    return callValue(th, new StarlarkFunction(this.toplevel, mod, [], []), [], null);
  }
}

/** Compiles a resolved file into a program. */
export function compileFile(file: File, universe: ReadonlyMap<string, Value>): Program {
  const prog = new Program(file.path, file, universe);
  const firstPos = file.stmts.length > 0 ? stmtStart(file.stmts[0]!) : 0;
  const code = new FuncCode("<toplevel>", file.path, firstPos, !!file.options.recursion);
  const fc = new FnCompiler(prog, code, file.options.recursion ?? false);
  fc.setLocals(file.locals);
  code.body = fc.block(file.stmts);
  prog.toplevel = code;
  return prog;
}

/** Compiles a resolved expression into a program whose top level returns its value. */
export function compileExpr(
  path: string,
  expr: Expr,
  locals: Binding[],
  universe: ReadonlyMap<string, Value>,
): Program {
  const file: File = { path, stmts: [], options: {}, locals, globals: [] };
  const prog = new Program(path, file, universe);
  const code = new FuncCode("<expr>", path, 0, false);
  const fc = new FnCompiler(prog, code, false);
  fc.setLocals(locals);
  const ev = fc.expr(expr);
  code.body = (fr) => {
    fr.ret = ev(fr);
    return RETURN;
  };
  prog.toplevel = code;
  return prog;
}

function stmtStart(s: Stmt): Pos {
  switch (s.kind) {
    case "ExprStmt":
      return exprStart(s.x);
    case "BranchStmt":
      return s.pos;
    case "IfStmt":
      return s.ifPos;
    case "AssignStmt":
      return exprStart(s.lhs);
    case "DefStmt":
      return s.defPos;
    case "ForStmt":
      return s.forPos;
    case "WhileStmt":
      return s.whilePos;
    case "ReturnStmt":
      return s.returnPos;
    case "LoadStmt":
      return s.loadPos;
  }
}

function exprStart(e: Expr): Pos {
  switch (e.kind) {
    case "Ident":
    case "Literal":
      return e.pos;
    case "ListExpr":
      return e.lbrack;
    case "CondExpr":
      return exprStart(e.t);
    case "IndexExpr":
    case "SliceExpr":
    case "DotExpr":
    case "BinaryExpr":
      return exprStart(e.x);
    case "CallExpr":
      return exprStart(e.fn);
    case "Comprehension":
      return e.lbrack;
    case "TupleExpr":
      return e.lparen || (e.list.length > 0 ? exprStart(e.list[0]!) : 0);
    case "DictExpr":
      return e.lbrace;
    case "UnaryExpr":
      return e.opPos;
    case "LambdaExpr":
      return e.lambdaPos;
    case "ParenExpr":
      return e.lparen;
  }
}

/** A basic block of go.starlark.net's compiler, reduced to its instructions' source positions. */
interface PosBlock {
  pos: Pos[];
  jmp: PosBlock | null;
  cjmp: PosBlock | null;
}

/**
 * The source position go.starlark.net gives a slice operation. Its compiler records a position only on
 * the instruction emitted right after a setPos; any other instruction inherits the last recorded one in
 * the code's linear layout (blocks depth-first, fall-through successor first). SLICE sets none of its
 * own beyond `[` before its operands, so it reports the last call, operator or name laid out before
 * it. This replays the compilation of the slice over positions only.
 */
function slicePosition(e: Expr & { kind: "SliceExpr" }): Pos {
  const newBlock = (): PosBlock => ({ pos: [], jmp: null, cjmp: null });
  const entry = newBlock();
  let cur = entry;
  let pending: Pos = 0;
  const setPos = (p: Pos) => {
    pending = p;
  };
  const emit = () => {
    if (pending !== 0) cur.pos.push(pending);
    pending = 0;
  };
  const jump = (b: PosBlock) => {
    cur.jmp = b;
  };
  const condjump = (t: PosBlock, f: PosBlock) => {
    emit();
    cur.cjmp = t;
    cur.jmp = f;
  };
  const ifelse = (c: Expr, t: PosBlock, f: PosBlock): void => {
    if (c.kind === "UnaryExpr" && c.op === T.NOT) {
      ifelse(c.x!, f, t);
      return;
    }
    if (c.kind === "BinaryExpr" && (c.op === T.AND || c.op === T.OR)) {
      expr(c.x);
      const y = newBlock();
      if (c.op === T.AND) condjump(y, f);
      else condjump(t, y);
      cur = y;
      ifelse(c.y, t, f);
      return;
    }
    expr(c);
    if (c.kind === "BinaryExpr" && c.op === T.NOT_IN) condjump(f, t);
    else condjump(t, f);
  };
  const assign = (pos: Pos, lhs: Expr): void => {
    if (lhs.kind === "ParenExpr") {
      assign(pos, lhs.x);
      return;
    }
    if (lhs.kind === "TupleExpr" || lhs.kind === "ListExpr") {
      setPos(pos);
      emit();
      for (const x of lhs.list) assign(pos, x);
      return;
    }
    emit();
  };
  const comprehension = (c: Comprehension, i: number): void => {
    const clause = c.clauses[i];
    if (clause === undefined) {
      emit();
      const body = c.body;
      if (body.kind === "DictEntry") {
        expr(body.key);
        expr(body.value);
        setPos(body.colon);
      } else {
        expr(body);
      }
      emit();
      return;
    }
    if (clause.kind === "IfClause") {
      const t = newBlock();
      const done = newBlock();
      ifelse(clause.cond, t, done);
      cur = t;
      comprehension(c, i + 1);
      jump(done);
      cur = done;
      return;
    }
    const head = newBlock();
    const body = newBlock();
    const tail = newBlock();
    expr(clause.x);
    setPos(clause.forPos);
    emit();
    jump(head);
    cur = head;
    condjump(tail, body);
    cur = body;
    assign(clause.forPos, clause.vars);
    comprehension(c, i + 1);
    jump(head);
    cur = tail;
    emit();
  };
  const sum = (e: Expr & { kind: "BinaryExpr" }) => {
    const args: { x: Expr; plusPos: Pos }[] = [];
    for (let plus = e; ; ) {
      args.push({ x: unparen(plus.y), plusPos: plus.opPos });
      const left = unparen(plus.x);
      if (left.kind !== "BinaryExpr" || left.op !== T.PLUS) {
        args.push({ x: left, plusPos: 0 });
        break;
      }
      plus = left;
    }
    args.reverse();
    // Adjacent string, bytes, list or tuple literals are folded into one operand.
    const addable = (x: Expr): string =>
      x.kind === "Literal" && (x.token === T.STRING || x.token === T.BYTES)
        ? `${x.token}`
        : x.kind === "ListExpr" || x.kind === "TupleExpr"
          ? x.kind
          : "";
    for (let i = 0, n = 0; i < args.length; n++) {
      const code = addable(args[i]!.x);
      let j = i + 1;
      if (code !== "") while (j < args.length && addable(args[j]!.x) === code) j++;
      if (code === "ListExpr" || code === "TupleExpr") {
        for (let k = i; k < j; k++) for (const x of (args[k]!.x as Expr & { list: Expr[] }).list) expr(x);
        emit();
      } else if (j > i + 1) emit();
      else expr(args[i]!.x);
      if (n > 0) {
        setPos(args[i]!.plusPos);
        emit();
      }
      i = j;
    }
  };
  const expr = (e: Expr): void => {
    switch (e.kind) {
      case "ParenExpr": {
        expr(e.x);
        return;
      }
      case "Ident":
        if (e.binding?.scope !== Scope.Universal) setPos(e.pos);
        {
          emit();
          return;
        }
      case "Literal": {
        emit();
        return;
      }
      case "ListExpr":
      case "TupleExpr":
        for (const x of e.list) expr(x);
        {
          emit();
          return;
        }
      case "DictExpr":
        emit();
        for (const entry of e.list as DictEntry[]) {
          emit();
          expr(entry.key);
          expr(entry.value);
          setPos(entry.colon);
          emit();
        }
        return;
      case "CondExpr": {
        const t = newBlock();
        const f = newBlock();
        const done = newBlock();
        ifelse(e.cond, t, f);
        cur = t;
        expr(e.t);
        jump(done);
        cur = f;
        expr(e.f);
        jump(done);
        cur = done;
        return;
      }
      case "IndexExpr":
        expr(e.x);
        expr(e.y);
        setPos(e.lbrack);
        {
          emit();
          return;
        }
      case "SliceExpr":
        setPos(e.lbrack);
        expr(e.x);
        for (const x of [e.lo, e.hi, e.step]) {
          if (x) expr(x);
          else emit();
        }
        {
          emit();
          return;
        }
      case "Comprehension":
        emit();
        {
          comprehension(e, 0);
          return;
        }
      case "UnaryExpr":
        expr(e.x!);
        setPos(e.opPos);
        {
          emit();
          return;
        }
      case "BinaryExpr": {
        if (e.op === T.AND || e.op === T.OR) {
          const done = newBlock();
          const y = newBlock();
          expr(e.x);
          emit();
          if (e.op === T.AND) condjump(y, done);
          else condjump(done, y);
          cur = y;
          emit();
          expr(e.y);
          jump(done);
          cur = done;
          return;
        }
        if (e.op === T.PLUS) {
          sum(e);
          return;
        }
        expr(e.x);
        expr(e.y);
        setPos(e.opPos);
        emit();
        return;
      }
      case "DotExpr":
        expr(e.x);
        setPos(e.dot);
        {
          emit();
          return;
        }
      case "CallExpr": {
        expr(e.fn);
        const rest: Expr[] = [];
        for (const a of e.args) {
          if (a.kind === "BinaryExpr" && a.op === T.EQ) {
            emit();
            expr(a.y);
          } else if (a.kind === "UnaryExpr" && (a.op === T.STAR || a.op === T.STARSTAR)) {
            rest.push(a.x!);
          } else {
            expr(a);
          }
        }
        for (const x of rest) expr(x);
        setPos(e.lparen);
        emit();
        return;
      }
      case "LambdaExpr":
        setPos(e.lambdaPos);
        for (const p of e.params) if (p.kind === "BinaryExpr") expr(p.y);
        for (let i = 0; i < (e.fn?.freeVars.length ?? 0); i++) emit();
        emit();
        {
          emit();
          return;
        }
    }
  };
  setPos(e.lbrack);
  expr(e.x);
  for (const x of [e.lo, e.hi, e.step]) {
    if (x) expr(x);
    else emit();
  }
  if (pending !== 0) return pending;
  // The slice's own instruction comes next in `cur`; lay the blocks out up to it.
  const last = cur;
  let found: Pos = 0;
  let done = false;
  const visit = (b: PosBlock | null, seen: Set<PosBlock>): void => {
    if (b === null || done || seen.has(b)) return;
    seen.add(b);
    if (b.pos.length > 0) found = b.pos[b.pos.length - 1]!;
    if (b === last) {
      done = true;
      return;
    }
    visit(b.jmp, seen);
    visit(b.cjmp, seen);
  };
  visit(entry, new Set());
  return found !== 0 ? found : e.lbrack;
}

/**
 * The position go.starlark.net reports for a function's frame before it executes anything (argument
 * binding errors, the recursion check): that of its first instruction, i.e. the last position set
 * while compiling up to the first emitted instruction (the def/lambda position if none).
 */
function entryPosition(body: Stmt[], defPos: Pos): Pos {
  let cur = defPos;
  const ex = (e: Expr): boolean => {
    switch (e.kind) {
      case "ParenExpr":
        return ex(e.x);
      case "Ident":
        if (e.binding?.scope !== Scope.Universal) cur = e.pos;
        return true;
      case "ListExpr":
      case "TupleExpr":
        return e.list.length > 0 ? ex(e.list[0]!) : true;
      case "CondExpr":
        return cond(e.cond);
      case "IndexExpr":
      case "DotExpr":
      case "UnaryExpr":
      case "BinaryExpr":
        return ex(e.x as Expr);
      case "SliceExpr":
        cur = e.lbrack;
        return ex(e.x);
      case "CallExpr":
        return ex(e.fn);
      case "LambdaExpr": {
        cur = e.lambdaPos;
        const d = e.params.find((p) => p.kind === "BinaryExpr");
        return d !== undefined && d.kind === "BinaryExpr" ? ex(d.y) : true;
      }
      default:
        return true;
    }
  };
  const cond = (e: Expr): boolean => {
    if (e.kind === "UnaryExpr" && e.op === T.NOT) return cond(e.x!);
    return ex(e);
  };
  for (const s of body) {
    switch (s.kind) {
      case "ExprStmt":
        if (s.x.kind === "Literal") continue;
        ex(s.x);
        return cur;
      case "BranchStmt":
        if (s.token === T.PASS) continue;
        return cur;
      case "IfStmt":
      case "WhileStmt":
        cond(s.cond);
        return cur;
      case "AssignStmt":
        if (s.op === T.EQ) ex(s.rhs);
        else {
          const l = unparen(s.lhs);
          if (l.kind === "Ident") cur = l.pos;
          else ex((l as { x: Expr }).x);
        }
        return cur;
      case "ForStmt":
        ex(s.x);
        return cur;
      case "ReturnStmt":
        if (s.result !== null) ex(s.result);
        return cur;
      case "DefStmt":
        cur = s.defPos;
        return cur;
      case "LoadStmt":
        return cur;
    }
  }
  return cur;
}

function errLocal(fr: Frame, pos: Pos, name: string): never {
  fr.pos = pos;
  return fail(`local variable ${name} referenced before assignment`);
}

/** Iterates a value for a loop; throws "T value is not iterable". */
function loopIter(x: Value) {
  if (typeof x === "object" && x.iterate !== undefined) return x.iterate();
  return fail(`${typeName(x)} value is not iterable`);
}

const EMPTY: Value[] = [];

/** Compiles the statements and expressions of one function body. */
class FnCompiler {
  constructor(
    readonly prog: Program,
    readonly code: FuncCode,
    readonly recursion: boolean,
  ) {}

  setLocals(locals: Binding[]): void {
    this.code.nlocals = locals.length;
    this.code.localNames = locals.map((b) => b.first!.name);
    this.code.cells = [];
    locals.forEach((b, i) => {
      if (b.scope === Scope.Cell) this.code.cells.push(i);
    });
  }

  // ---- statements ----

  block(stmts: Stmt[]): Ex {
    const execs: Ex[] = [];
    for (const s of stmts) {
      const e = this.stmt(s);
      if (e !== null) execs.push(e);
    }
    switch (execs.length) {
      case 0:
        return () => NORMAL;
      case 1:
        return execs[0]!;
      case 2: {
        const [a, b] = execs as [Ex, Ex];
        return (fr) => {
          const s = a(fr);
          return s !== NORMAL ? s : b(fr);
        };
      }
      case 3: {
        const [a, b, c] = execs as [Ex, Ex, Ex];
        return (fr) => {
          let s = a(fr);
          if (s !== NORMAL) return s;
          s = b(fr);
          return s !== NORMAL ? s : c(fr);
        };
      }
      default:
        return (fr) => {
          for (let i = 0; i < execs.length; i++) {
            const s = execs[i]!(fr);
            if (s !== NORMAL) return s;
          }
          return NORMAL;
        };
    }
  }

  stmt(s: Stmt): Ex | null {
    switch (s.kind) {
      case "ExprStmt": {
        if (s.x.kind === "Literal") return null;
        const x = this.expr(s.x);
        return (fr) => {
          x(fr);
          return NORMAL;
        };
      }
      case "BranchStmt":
        if (s.token === T.PASS) return null;
        if (s.token === T.BREAK) return () => BREAK;
        return () => CONTINUE;
      case "IfStmt": {
        const cond = this.cond(s.cond);
        const t = this.block(s.trueBody);
        if (s.falseBody.length === 0) return (fr) => (cond(fr) ? t(fr) : NORMAL);
        const f = this.block(s.falseBody);
        return (fr) => (cond(fr) ? t(fr) : f(fr));
      }
      case "AssignStmt":
        return s.op === T.EQ ? this.assignStmt(s) : this.augmentedAssign(s);
      case "DefStmt": {
        const mk = this.function(s.fn!);
        const set = this.setter(s.name);
        return (fr) => {
          set(fr, mk(fr));
          return NORMAL;
        };
      }
      case "ForStmt": {
        const x = this.expr(s.x);
        const forPos = s.forPos;
        const assign = this.assign(forPos, s.vars);
        const body = this.block(s.body);
        return (fr) => {
          const seq = x(fr);
          fr.pos = forPos;
          const th = fr.th;
          if (seq instanceof List) {
            // fast path: index the list directly (mutation during iteration is refused)
            const frozen = seq.frozen;
            if (!frozen) seq.itercount++;
            try {
              const elems = seq.elems;
              for (let i = 0; i < seq.elems.length; i++) {
                if (++th.steps > th.nextCheck) th.stepLimit();
                assign(fr, elems[i]!);
                const st = body(fr);
                if (st === BREAK) break;
                if (st === RETURN) return RETURN;
              }
            } finally {
              if (!frozen) seq.itercount--;
            }
            return NORMAL;
          }
          if (seq instanceof Range) {
            const start = seq.start;
            const step = seq.step;
            for (let i = 0, n = seq.len_; i < n; i++) {
              if (++th.steps > th.nextCheck) th.stepLimit();
              assign(fr, start + i * step);
              const st = body(fr);
              if (st === BREAK) break;
              if (st === RETURN) return RETURN;
            }
            return NORMAL;
          }
          const it = loopIter(seq);
          try {
            for (let v = it.next(); v !== undefined; v = it.next()) {
              if (++th.steps > th.nextCheck) th.stepLimit();
              assign(fr, v);
              const st = body(fr);
              if (st === BREAK) break;
              if (st === RETURN) return RETURN;
            }
          } finally {
            it.done();
          }
          return NORMAL;
        };
      }
      case "WhileStmt": {
        const cond = this.cond(s.cond);
        const body = this.block(s.body);
        return (fr) => {
          const th = fr.th;
          while (cond(fr)) {
            if (++th.steps > th.nextCheck) th.stepLimit();
            const st = body(fr);
            if (st === BREAK) break;
            if (st === RETURN) return RETURN;
          }
          return NORMAL;
        };
      }
      case "ReturnStmt": {
        if (s.result === null) {
          return (fr) => {
            fr.ret = None;
            return RETURN;
          };
        }
        const r = this.expr(s.result);
        return (fr) => {
          fr.ret = r(fr);
          return RETURN;
        };
      }
      case "LoadStmt": {
        const module = s.module.value as string;
        this.prog.loads.push(module);
        const loadPos = s.loadPos;
        const froms = s.from.map((id) => id.name);
        const setters = s.to.map((id) => this.setter(id));
        return (fr) => {
          fr.pos = loadPos;
          const th = fr.th;
          if (th.load === null) fail("load not implemented by this application");
          let dict: ReadonlyMap<string, Value>;
          try {
            dict = th.load(th, fromBytes(module));
          } catch (e) {
            throw new StarlarkError(`cannot load ${module}: ${e instanceof Error ? e.message : String(e)}`);
          }
          const vals: Value[] = [];
          for (const from of froms) {
            const v = dict.get(fromBytes(from));
            if (v === undefined) {
              const n = nearest(from, [...dict.keys()].sort());
              fail(
                `load: name ${from} not found in module ${module}${n !== "" ? ` (did you mean ${n}?)` : ""}`,
              );
            }
            vals.push(v);
          }
          for (let i = 0; i < setters.length; i++) setters[i]!(fr, vals[i]!);
          return NORMAL;
        };
      }
    }
  }

  assignStmt(s: AssignStmt): Ex {
    const rhs = this.expr(s.rhs);
    const lhs = s.lhs;
    if (lhs.kind === "Ident") {
      const set = this.setter(lhs);
      return (fr) => {
        set(fr, rhs(fr));
        return NORMAL;
      };
    }
    const assign = this.assign(s.opPos, lhs);
    return (fr) => {
      assign(fr, rhs(fr));
      return NORMAL;
    };
  }

  augmentedAssign(s: AssignStmt): Ex {
    const op = s.op - T.PLUS_EQ + T.PLUS;
    const opPos = s.opPos;
    const rhs = this.expr(s.rhs);
    const lhs = unparen(s.lhs);
    const apply = (fr: Frame, x: Value, y: Value): Value => {
      fr.pos = opPos;
      if (op === T.PLUS) {
        if (typeof x === "number" && typeof y === "number") return intAdd(x, y);
        if (x instanceof List && typeof y === "object" && y.iterate !== undefined) {
          x.checkMutable("apply += to");
          listExtend(fr.th, x, y);
          return x;
        }
      } else if (op === T.PIPE) {
        if (x instanceof Dict && y instanceof Dict) {
          x.checkMutable("apply |= to");
          x.addAll(y);
          return x;
        }
      }
      return binary(op, x, y);
    };
    if (lhs.kind === "Ident") {
      const get = this.lookup(lhs);
      const set = this.setter(lhs);
      return (fr) => {
        const x = get(fr);
        const y = rhs(fr);
        set(fr, apply(fr, x, y));
        return NORMAL;
      };
    }
    if (lhs.kind === "IndexExpr") {
      const X = this.expr(lhs.x);
      const Y = this.expr(lhs.y);
      const lbrack = lhs.lbrack;
      return (fr) => {
        const x = X(fr);
        const y = Y(fr);
        fr.pos = lbrack;
        const old = getIndex(x, y);
        const z = apply(fr, old, rhs(fr));
        fr.pos = lbrack;
        setIndex(x, y, z);
        return NORMAL;
      };
    }
    if (lhs.kind === "DotExpr") {
      const X = this.expr(lhs.x);
      const name = lhs.name.name;
      const dot = lhs.dot;
      return (fr) => {
        const x = X(fr);
        fr.pos = dot;
        const old = getAttr(x, name);
        const z = apply(fr, old, rhs(fr));
        fr.pos = dot;
        setField(x, name, z);
        return NORMAL;
      };
    }
    throw new Error(`unexpected augmented assignment target ${lhs.kind}`);
  }

  /** Compiles an assignment target; `pos` is reported for unpacking errors. */
  assign(pos: Pos, lhs: Expr): Assign {
    switch (lhs.kind) {
      case "ParenExpr":
        return this.assign(pos, lhs.x);
      case "Ident":
        return this.setter(lhs);
      case "TupleExpr":
      case "ListExpr":
        return this.assignSequence(pos, lhs.list);
      case "IndexExpr": {
        const X = this.expr(lhs.x);
        const Y = this.expr(lhs.y);
        const lbrack = lhs.lbrack;
        return (fr, v) => {
          const x = X(fr);
          const y = Y(fr);
          if (x instanceof Dict && typeof y === "string" && !x.frozen && x.itercount === 0) {
            const en = x.map.get(y);
            if (en !== undefined) {
              en.v = v;
              return;
            }
          }
          fr.pos = lbrack;
          setIndex(x, y, v);
        };
      }
      case "DotExpr": {
        const X = this.expr(lhs.x);
        const name = lhs.name.name;
        const dot = lhs.dot;
        return (fr, v) => {
          const x = X(fr);
          fr.pos = dot;
          setField(x, name, v);
        };
      }
      default:
        throw new Error(`unexpected assignment target ${lhs.kind}`);
    }
  }

  assignSequence(pos: Pos, lhs: Expr[]): Assign {
    const n = lhs.length;
    const targets = lhs.map((e) => this.assign(pos, e));
    return (fr, v) => {
      fr.pos = pos;
      let vals: Value[];
      if ((v instanceof Tuple || v instanceof List) && v.elems.length === n) {
        vals = v instanceof List ? v.elems.slice() : v.elems;
      } else {
        vals = unpack(v, n);
      }
      for (let i = 0; i < n; i++) targets[i]!(fr, vals[i]!);
    };
  }

  /** Compiles a store to a variable. */
  setter(id: Ident): Assign {
    const b = id.binding!;
    const i = b.index;
    switch (b.scope) {
      case Scope.Local:
        return (fr, v) => {
          fr.locals[i] = v;
        };
      case Scope.Cell:
        return (fr, v) => {
          (fr.locals[i] as Cell).v = v;
        };
      case Scope.Global:
        return (fr, v) => {
          fr.g[i] = v;
        };
      default:
        throw new Error(`${id.name}: cannot assign to ${b.scope}`);
    }
  }

  /** Compiles a variable read. */
  lookup(id: Ident): Ev {
    const b = id.binding!;
    const i = b.index;
    const name = id.name;
    const pos = id.pos;
    switch (b.scope) {
      case Scope.Local:
        return (fr) => {
          const v = fr.locals[i] as Value | undefined;
          return v !== undefined ? v : errLocal(fr, pos, name);
        };
      case Scope.Cell:
        return (fr) => {
          const v = (fr.locals[i] as Cell).v;
          return v !== undefined ? v : errLocal(fr, pos, name);
        };
      case Scope.Free:
        return (fr) => {
          const v = fr.fn.freevars[i]!.v;
          return v !== undefined ? v : errLocal(fr, pos, name);
        };
      case Scope.Global:
        return (fr) => {
          const v = fr.g[i];
          if (v !== undefined) return v;
          fr.pos = pos;
          return fail(`global variable ${name} referenced before assignment`);
        };
      case Scope.Predeclared: {
        const slot = this.prog.predeclaredSlot(name);
        return (fr) => {
          const v = fr.fn.module.predeclared[slot];
          if (v !== undefined) return v;
          fr.pos = pos;
          return fail(`internal error: predeclared variable ${name} is uninitialized`);
        };
      }
      case Scope.Universal: {
        const v = this.prog.universe.get(name);
        if (v === undefined) throw new Error(`universal ${name} is undefined`);
        return () => v;
      }
      default:
        throw new Error(`${name}: unresolved`);
    }
  }

  // ---- expressions ----

  expr(e: Expr): Ev {
    switch (e.kind) {
      case "ParenExpr":
        return this.expr(e.x);
      case "Ident":
        return this.lookup(e);
      case "Literal": {
        let v: Value;
        if (e.token === T.BYTES) v = new Bytes(e.value as string);
        else if (e.token === T.FLOAT) v = new Float(e.value as number);
        else v = e.value as Value;
        return () => v;
      }
      case "ListExpr": {
        // Literals are charged to the memory budget (about what V8 allocates for them).
        const elems = e.list.map((x) => this.expr(x));
        if (elems.length === 0)
          return (fr) => {
            fr.th.alloc(48);
            return new List([]);
          };
        const bytes = 48 + 8 * elems.length;
        const lbrack = e.lbrack;
        return (fr) => {
          const out = new Array<Value>(elems.length);
          for (let i = 0; i < elems.length; i++) out[i] = elems[i]!(fr);
          fr.pos = lbrack;
          fr.th.alloc(bytes);
          return new List(out);
        };
      }
      case "TupleExpr": {
        const elems = e.list.map((x) => this.expr(x));
        if (elems.length === 2) {
          const [a, b] = elems as [Ev, Ev];
          return (fr) => {
            const t = new Tuple([a(fr), b(fr)]);
            fr.th.alloc(56);
            return t;
          };
        }
        const bytes = 40 + 8 * elems.length;
        return (fr) => {
          const out = new Array<Value>(elems.length);
          for (let i = 0; i < elems.length; i++) out[i] = elems[i]!(fr);
          fr.th.alloc(bytes);
          return new Tuple(out);
        };
      }
      case "DictExpr": {
        const entries = e.list.map((en) => ({
          k: this.expr(en.key),
          v: this.expr(en.value),
          colon: en.colon,
        }));
        const bytes = 160 + 64 * entries.length;
        return (fr) => {
          fr.th.alloc(bytes);
          const d = new Dict();
          for (const en of entries) {
            const k = en.k(fr);
            const v = en.v(fr);
            fr.pos = en.colon;
            const old = d.map.size;
            d.setKey(k, v);
            if (d.map.size === old) fail(`duplicate key: ${repr(k)}`);
          }
          return d;
        };
      }
      case "CondExpr": {
        const c = this.cond(e.cond);
        const t = this.expr(e.t);
        const f = this.expr(e.f);
        return (fr) => (c(fr) ? t(fr) : f(fr));
      }
      case "IndexExpr": {
        const X = this.expr(e.x);
        const Y = this.expr(e.y);
        const pos = e.lbrack;
        return (fr) => {
          const x = X(fr);
          const y = Y(fr);
          if (x instanceof Dict) {
            if (typeof y === "string") {
              const en = x.map.get(y);
              if (en !== undefined) return en.v;
            }
          } else if (x instanceof List && typeof y === "number" && y >= 0 && y < x.elems.length) {
            return x.elems[y]!;
          }
          fr.pos = pos;
          return getIndex(x, y);
        };
      }
      case "SliceExpr": {
        const X = this.expr(e.x);
        const lo = e.lo ? this.expr(e.lo) : null;
        const hi = e.hi ? this.expr(e.hi) : null;
        const st = e.step ? this.expr(e.step) : null;
        const pos = slicePosition(e);
        return (fr) => {
          const x = X(fr);
          const a = lo ? lo(fr) : None;
          const b = hi ? hi(fr) : None;
          const c = st ? st(fr) : None;
          fr.pos = pos;
          return slice(x, a, b, c);
        };
      }
      case "Comprehension":
        return this.comprehension(e);
      case "UnaryExpr": {
        const X = this.expr(e.x!);
        if (e.op === T.NOT) return (fr) => !truth(X(fr));
        const op = e.op;
        const pos = e.opPos;
        if (op === T.MINUS) {
          return (fr) => {
            const x = X(fr);
            if (typeof x === "number") return x === 0 ? 0 : -x;
            fr.pos = pos;
            return unary(op, x);
          };
        }
        return (fr) => {
          const x = X(fr);
          fr.pos = pos;
          return unary(op, x);
        };
      }
      case "BinaryExpr":
        return this.binaryExpr(e.op, e.x, e.y, e.opPos);
      case "DotExpr": {
        const X = this.expr(e.x);
        const name = e.name.name;
        const pos = e.dot;
        return (fr) => {
          const x = X(fr);
          fr.pos = pos;
          return getAttr(x, name);
        };
      }
      case "CallExpr":
        return this.call(e);
      case "LambdaExpr":
        return this.function(e.fn!);
    }
  }

  binaryExpr(op: Token, xe: Expr, ye: Expr, pos: Pos): Ev {
    if (op === T.OR) {
      const X = this.expr(xe);
      const Y = this.expr(ye);
      return (fr) => {
        const x = X(fr);
        return truth(x) ? x : Y(fr);
      };
    }
    if (op === T.AND) {
      const X = this.expr(xe);
      const Y = this.expr(ye);
      return (fr) => {
        const x = X(fr);
        return truth(x) ? Y(fr) : x;
      };
    }
    const X = this.expr(xe);
    const Y = this.expr(ye);
    switch (op) {
      case T.PLUS:
        return (fr) => {
          const x = X(fr);
          const y = Y(fr);
          if (typeof x === "number" && typeof y === "number") {
            const z = x + y;
            if (z <= 9007199254740991 && z >= -9007199254740991) return z;
          } else if (typeof x === "string" && typeof y === "string") {
            // JS strings concatenate as ropes: the new memory is about the smaller operand
            const n = Math.min(x.length, y.length);
            if (n > 1024) fr.th.alloc(n);
            return x + y;
          }
          fr.pos = pos;
          return binary(op, x, y);
        };
      case T.MINUS:
        return (fr) => {
          const x = X(fr);
          const y = Y(fr);
          if (typeof x === "number" && typeof y === "number") {
            const z = x - y;
            if (z <= 9007199254740991 && z >= -9007199254740991) return z;
          }
          fr.pos = pos;
          return binary(op, x, y);
        };
      case T.EQL:
      case T.NEQ: {
        const neq = op === T.NEQ;
        return (fr) => {
          const x = X(fr);
          const y = Y(fr);
          const tx = typeof x;
          if ((tx === "string" || tx === "number" || tx === "boolean") && tx === typeof y)
            return (x === y) !== neq;
          fr.pos = pos;
          return equal(x, y) !== neq;
        };
      }
      case T.LT:
      case T.GT:
      case T.LE:
      case T.GE:
        return (fr) => {
          const x = X(fr);
          const y = Y(fr);
          if (typeof x === "number" && typeof y === "number") {
            return op === T.LT ? x < y : op === T.GT ? x > y : op === T.LE ? x <= y : x >= y;
          }
          fr.pos = pos;
          return compare(op, x, y);
        };
      case T.IN:
      case T.NOT_IN: {
        const not = op === T.NOT_IN;
        return (fr) => {
          const x = X(fr);
          const y = Y(fr);
          fr.pos = pos;
          if (y instanceof Dict && typeof x === "string") return y.map.has(x) !== not;
          return (binary(T.IN, x, y) as boolean) !== not;
        };
      }
      default:
        return (fr) => {
          const x = X(fr);
          const y = Y(fr);
          fr.pos = pos;
          return binary(op, x, y);
        };
    }
  }

  /** Compiles an expression evaluated for its truth value. */
  cond(e: Expr): Cond {
    if (e.kind === "ParenExpr") return this.cond(e.x);
    if (e.kind === "UnaryExpr" && e.op === T.NOT) {
      const c = this.cond(e.x!);
      return (fr) => !c(fr);
    }
    if (e.kind === "BinaryExpr") {
      if (e.op === T.AND) {
        const a = this.cond(e.x);
        const b = this.cond(e.y);
        return (fr) => a(fr) && b(fr);
      }
      if (e.op === T.OR) {
        const a = this.cond(e.x);
        const b = this.cond(e.y);
        return (fr) => a(fr) || b(fr);
      }
      if (
        e.op === T.EQL ||
        e.op === T.NEQ ||
        e.op === T.LT ||
        e.op === T.GT ||
        e.op === T.LE ||
        e.op === T.GE ||
        e.op === T.IN ||
        e.op === T.NOT_IN
      ) {
        const ev = this.binaryExpr(e.op, e.x, e.y, e.opPos);
        return (fr) => ev(fr) as boolean;
      }
    }
    const ev = this.expr(e);
    return (fr) => truth(ev(fr));
  }

  comprehension(e: Comprehension): Ev {
    const lbrack = e.lbrack;
    let inner: (fr: Frame, acc: List | Dict) => void;
    if (e.curly) {
      const entry = e.body as DictEntry;
      const K = this.expr(entry.key);
      const V = this.expr(entry.value);
      const colon = entry.colon;
      inner = (fr, acc) => {
        const k = K(fr);
        const v = V(fr);
        fr.pos = colon;
        (acc as Dict).setKey(k, v);
      };
    } else {
      const B = this.expr(e.body as Expr);
      inner = (fr, acc) => {
        const elems = (acc as List).elems;
        if ((elems.length & 1023) === 1023) fr.th.alloc(8192);
        elems.push(B(fr));
      };
    }
    for (let i = e.clauses.length - 1; i >= 0; i--) inner = this.clause(e.clauses[i]!, inner);
    const curly = e.curly;
    void lbrack;
    return (fr) => {
      const acc = curly ? new Dict() : new List([]);
      inner(fr, acc);
      return acc;
    };
  }

  clause(c: ForClause | IfClause, next: (fr: Frame, acc: List | Dict) => void) {
    if (c.kind === "IfClause") {
      const cond = this.cond(c.cond);
      return (fr: Frame, acc: List | Dict) => {
        if (cond(fr)) next(fr, acc);
      };
    }
    const X = this.expr(c.x);
    const forPos = c.forPos;
    const assign = this.assign(forPos, c.vars);
    return (fr: Frame, acc: List | Dict) => {
      const seq = X(fr);
      fr.pos = forPos;
      const th = fr.th;
      const it = loopIter(seq);
      try {
        for (let v = it.next(); v !== undefined; v = it.next()) {
          if (++th.steps > th.nextCheck) th.stepLimit();
          assign(fr, v);
          next(fr, acc);
        }
      } finally {
        it.done();
      }
    };
  }

  call(e: CallExpr): Ev {
    const lparen = e.lparen;
    const positional: Ev[] = [];
    const named: { name: string; ev: Ev }[] = [];
    let varargs: Ev | null = null;
    let kwargs: Ev | null = null;
    for (const a of e.args) {
      if (a.kind === "BinaryExpr" && a.op === T.EQ) {
        named.push({ name: (a.x as Ident).name, ev: this.expr(a.y) });
      } else if (a.kind === "UnaryExpr" && a.op === T.STAR) {
        varargs = this.expr(a.x!);
      } else if (a.kind === "UnaryExpr" && a.op === T.STARSTAR) {
        kwargs = this.expr(a.x!);
      } else {
        positional.push(this.expr(a));
      }
    }
    const np = positional.length;
    const simple = named.length === 0 && varargs === null && kwargs === null;
    const evalArgs = (fr: Frame): [Value[], Kwargs | null] => {
      let args: Value[] = np === 0 ? EMPTY : new Array(np);
      for (let i = 0; i < np; i++) args[i] = positional[i]!(fr);
      if (simple) return [args, null];
      let kv: Kwargs | null = null;
      if (named.length > 0) {
        kv = [];
        for (const n of named) kv.push([n.name, n.ev(fr)]);
      }
      if (varargs !== null) {
        const va = varargs(fr);
        let kwv: Value | undefined;
        if (kwargs !== null) kwv = kwargs(fr);
        fr.pos = lparen;
        if (typeof va !== "object" || va.iterate === undefined) {
          fail(`argument after * must be iterable, not ${typeName(va)}`);
        }
        args = args === EMPTY ? [] : args;
        const it = va.iterate();
        try {
          for (let v = it.next(); v !== undefined; v = it.next()) args.push(v);
        } finally {
          it.done();
        }
        if (kwv !== undefined) kv = addKwargs(kv, kwv);
      } else if (kwargs !== null) {
        const kwv = kwargs(fr);
        fr.pos = lparen;
        kv = addKwargs(kv, kwv);
      }
      return [args, kv];
    };
    const fnExpr = unparen(e.fn);
    if (fnExpr.kind === "DotExpr") {
      // x.f(...): call methods of built-in types without materializing a bound method
      const X = this.expr(fnExpr.x);
      const name = fnExpr.name.name;
      const dot = fnExpr.dot;
      if (simple) {
        return (fr) => {
          const x = X(fr);
          fr.pos = dot;
          const table = methodTable(x);
          const m = table?.get(name);
          const f = m === undefined ? getAttr(x, name) : undefined;
          const args: Value[] = np === 0 ? EMPTY : new Array(np);
          for (let i = 0; i < np; i++) args[i] = positional[i]!(fr);
          fr.pos = lparen;
          if (m !== undefined) return callMethod(fr.th, m, x, args, null);
          return callValue(fr.th, f!, args, null);
        };
      }
      return (fr) => {
        const x = X(fr);
        fr.pos = dot;
        const table = methodTable(x);
        const m = table?.get(name);
        const f = m === undefined ? getAttr(x, name) : undefined;
        const [args, kv] = evalArgs(fr);
        fr.pos = lparen;
        if (m !== undefined) return callMethod(fr.th, m, x, args, kv);
        return callValue(fr.th, f!, args, kv);
      };
    }
    const F = this.expr(e.fn);
    if (simple && np === 1) {
      const a0 = positional[0]!;
      return (fr) => {
        const f = F(fr);
        const args = [a0(fr)];
        fr.pos = lparen;
        return callValue(fr.th, f, args, null);
      };
    }
    return (fr) => {
      const f = F(fr);
      const [args, kv] = evalArgs(fr);
      fr.pos = lparen;
      return callValue(fr.th, f, args, kv);
    };
  }

  /** Compiles a def or lambda: evaluates defaults and captures free variables at run time. */
  function(f: ResolvedFunction): Ev {
    const code = new FuncCode(f.name, this.prog.filename, f.pos, this.recursion);
    const defaults: Ev[] = [];
    let seenStar = false;
    const mandatory: boolean[] = [];
    for (const p of f.params) {
      if (p.kind === "BinaryExpr") {
        defaults.push(this.expr(p.y));
        mandatory.push(false);
      } else if (p.kind === "UnaryExpr") {
        seenStar = true;
      } else if (p.kind === "Ident" && seenStar) {
        defaults.push(() => None);
        mandatory.push(true);
      }
    }
    const captures: ((fr: Frame) => Cell)[] = f.freeVars.map((fv) => {
      const i = fv.index;
      if (fv.scope === Scope.Free) return (fr: Frame) => fr.fn.freevars[i]!;
      return (fr: Frame) => fr.locals[i] as Cell;
    });
    let numParams = f.params.length;
    if (f.numKwonlyParams > 0 && !f.hasVarargs) numParams--;
    code.numParams = numParams;
    code.numKwonly = f.numKwonlyParams;
    code.hasVarargs = f.hasVarargs;
    code.hasKwargs = f.hasKwargs;
    code.simpleParams = !f.hasVarargs && !f.hasKwargs && f.numKwonlyParams === 0;
    code.freeVarNames = f.freeVars.map((b) => b.first?.name ?? "?");
    const first = f.body[0];
    if (first?.kind === "ExprStmt" && first.x.kind === "Literal" && first.x.token === T.STRING) {
      code.doc = first.x.value as string;
    }
    const fc = new FnCompiler(this.prog, code, this.recursion);
    fc.setLocals(f.locals);
    code.body = fc.block(f.body);
    code.entryPos = entryPosition(f.body, f.pos);
    const pos = f.pos;
    return (fr) => {
      fr.pos = pos;
      const d: (Value | typeof MANDATORY)[] = new Array(defaults.length);
      for (let i = 0; i < defaults.length; i++) d[i] = mandatory[i] ? MANDATORY : defaults[i]!(fr);
      const cells = captures.length === 0 ? (EMPTY as unknown as Cell[]) : captures.map((c) => c(fr));
      return new StarlarkFunction(code, fr.fn.module, d, cells);
    };
  }
}

/** Calls a method of a built-in type directly (its frame is the method's shared Builtin). */
function callMethod(th: Thread, m: Builtin, recv: Value, args: Value[], kwargs: Kwargs | null): Value {
  const stack = th.stack;
  const depth = stack.length;
  if (++th.steps > th.nextCheck) th.stepLimit();
  stack.push(m);
  try {
    return m.impl(th, args, kwargs, recv, m.name);
  } catch (e) {
    throw th.evalError(e);
  } finally {
    stack.length = depth;
  }
}

function addKwargs(kv: Kwargs | null, kwv: Value): Kwargs {
  if (typeof kwv !== "object" || kwv.items === undefined || kwv.get === undefined) {
    fail(`argument after ** must be a mapping, not ${typeName(kwv)}`);
  }
  const items = kwv.items();
  const out: Kwargs = kv ?? [];
  for (const [k] of items) {
    if (typeof k !== "string") fail(`keywords must be strings, not ${typeName(k)}`);
  }
  for (const [k, v] of items) out.push([k as string, v]);
  return out;
}

/** Unpacks an iterable into exactly n values (sequence assignment). */
function unpack(v: Value, n: number): Value[] {
  if (typeof v !== "object" || v.iterate === undefined) fail(`got ${typeName(v)} in sequence assignment`);
  const it = v.iterate();
  const out: Value[] = [];
  try {
    let x = it.next();
    while (x !== undefined && out.length < n) {
      out.push(x);
      x = it.next();
    }
    if (x !== undefined) fail(`too many values to unpack (got ${length(v)}, want ${n})`);
  } finally {
    it.done();
  }
  if (out.length < n) fail(`too few values to unpack (got ${out.length}, want ${n})`);
  return out;
}

/** list += iterable / list.extend(iterable). */
export function listExtend(th: Thread, x: List, y: Value): void {
  if (y instanceof List || y instanceof Tuple) {
    const ys = y.elems;
    th.alloc(8 * ys.length);
    for (let i = 0, n = ys.length; i < n; i++) x.elems.push(ys[i]!);
    return;
  }
  const it = (y as SValue).iterate!();
  try {
    for (let v = it.next(); v !== undefined; v = it.next()) {
      th.charge(1);
      x.elems.push(v);
    }
  } finally {
    it.done();
  }
}
