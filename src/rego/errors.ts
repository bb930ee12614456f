/** Errors of the Rego evaluator. */

/** A source position. */
export interface Pos {
  file: string;
  line: number;
  col: number;
}

/**
 * A module or query that does not parse or compile (OPA's `rego_parse_error` / `rego_compile_error` /
 * `rego_type_error` / `rego_recursion_error`). `message` is `<file>:<line>:<col>: <kind>: <text>`;
 * `errors` lists every error found (the first is `message`).
 */
export class RegoCompileError extends Error {
  override readonly name = "RegoCompileError";
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly text: string;
  readonly errors: RegoCompileError[];
  constructor(pos: Pos, text: string, kind = "rego_compile_error") {
    super(`${pos.file}:${pos.line}:${pos.col}: ${kind}: ${text}`);
    this.file = pos.file;
    this.line = pos.line;
    this.col = pos.col;
    this.text = text;
    this.errors = [this];
  }
}

/** A query that fails at evaluation (OPA's `eval_conflict_error`, `eval_builtin_error`, ...). */
export class RegoEvalError extends Error {
  override readonly name: string = "RegoEvalError";
  readonly pos: Pos | undefined;
  readonly text: string;
  constructor(text: string, pos?: Pos, kind = "eval_error") {
    super(pos ? `${pos.file}:${pos.line}:${pos.col}: ${kind}: ${text}` : `${kind}: ${text}`);
    this.pos = pos;
    this.text = text;
  }
}

/** An evaluation stopped by its budget (steps, memory, time or depth). */
export class RegoBudgetError extends RegoEvalError {
  override readonly name = "RegoBudgetError";
  constructor(text: string) {
    super(text, undefined, "eval_cancel_error");
  }
}

/** A builtin's own error (wrong argument type, bad input): undefined in non-strict mode. */
export class BuiltinError extends Error {
  override readonly name = "BuiltinError";
}
