/**
 * The evaluator's state (OPA's topdown `eval` struct): the bindings of the rule or function being evaluated,
 * the documents, the rule-value caches and `with` overrides of the current scope, the budget meter. The
 * layers above it (unification, bodies, terms, data, rules, calls; `evaluator.ts` on top) each add one
 * family of methods; the methods a lower layer calls on a higher one are declared here.
 */
import type { BuiltinCtx } from "../builtins/index.js";
import type { CallTarget, RuleNode } from "../compile/rule-tree.js";
import { type Pos, RegoBudgetError } from "../errors.js";
import type { Term } from "../syntax/ast.js";
import type { Value } from "../values.js";
import { type Budget, Meter } from "./budget.js";

/** A continuation: returns true to stop the enumeration. */
export type K = () => boolean;
/** A continuation receiving a value. */
export type KV = (v: Value) => boolean;

/** One `with` scope: documents, rule-value caches, overrides of data paths, mocked functions. */
export interface Ctx {
  input: Value | undefined;
  data: Value;
  cache: Map<number, Value | null | undefined>;
  cacheHas: Set<number>;
  overrides: { path: string[]; value: Value }[];
  mocks: Map<string, { target?: CallTarget; value?: Value }>;
  fnCache: Map<string, Value | undefined>;
}

/** Evaluation options. */
export interface EvalOptions {
  input: Value | undefined;
  data: Value;
  budget: Budget | undefined;
  strict: boolean;
  print: ((line: string) => void) | undefined;
  clock?: { now: () => number; checkEvery: number } | undefined;
}

/** The root documents: never bound by unification. */
export const ROOTS = new Set(["input", "data"]);

export abstract class EvalState {
  env = new Map<string, Value>();
  ctx: Ctx;
  readonly meter: Meter;
  readonly strict: boolean;
  protected readonly inProgress = new Set<number>();
  protected readonly bctx: BuiltinCtx;

  constructor(
    readonly root: RuleNode,
    readonly opts: EvalOptions,
  ) {
    this.ctx = {
      input: opts.input,
      data: opts.data,
      cache: new Map(),
      cacheHas: new Set(),
      overrides: [],
      mocks: new Map(),
      fnCache: new Map(),
    };
    this.meter = new Meter(opts.budget, opts.clock?.now, opts.clock?.checkEvery);
    this.strict = opts.strict;
    const started = Date.now();
    this.bctx = { meter: this.meter, strict: opts.strict, now: () => started };
  }

  guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof RangeError) throw new RegoBudgetError("evaluation exceeded the host's stack depth");
      throw e;
    }
  }

  abstract evalTerm(t: Term, k: KV): boolean;
  abstract evalData(node: RuleNode, path: Term[], i: number, base: Value | undefined, k: KV): boolean;
  abstract evalCall(t: Extract<Term, { t: "call" }>, k: KV): boolean;
  abstract binop(op: string, a: Value, b: Value, pos: Pos): Value | undefined;
  abstract callFunction(node: RuleNode, args: Value[], pos: Pos): Value | undefined;
  abstract evalRules(node: RuleNode): Value | undefined;
}
