/**
 * The compiled program the compiler builds and the evaluator runs (OPA's rule tree): rules placed at
 * their `data` paths, call targets and `with` targets resolved.
 */
import type { Module, Rule, Term } from "../syntax/ast.js";

/** A rule placed in the tree. */
export interface CRule {
  rule: Rule;
  module: Module;
  /** Dynamic head segments after the node's path (object rules; set rules' leading path). */
  suffix: Term[];
  id: number;
}

/** A node of the rule tree: `data.a.b` is root → a → b. */
export class RuleNode {
  readonly children = new Map<string, RuleNode>();
  readonly rules: CRule[] = [];
  readonly funcs: CRule[] = [];
  defaults: CRule[] = [];
  kind: "complete" | "set" | "object" | "func" | undefined;
  constructor(
    readonly path: string[],
    readonly id: number,
  ) {}
  /** Whether this node or a descendant has rules. */
  get hasRules(): boolean {
    return this.rules.length > 0 || this.funcs.length > 0 || this.defaults.length > 0;
  }
}

/** A call's target. */
export type CallTarget =
  | { kind: "rule"; node: RuleNode; name: string }
  | { kind: "builtin"; name: string }
  | { kind: "unknown"; name: string };

/** What a `with` modifier replaces (resolved by the compiler). */
export type WithTarget =
  | { kind: "input"; path: string[] }
  | { kind: "data"; path: string[] }
  | { kind: "fn"; key: string; replacement: CallTarget | undefined };
