/**
 * A small evaluator for the CEL expressions of a pipeline step's `when` (newer kpt: the step runs only
 * when the expression over the package's `resources` is true, otherwise it is recorded as skipped).
 *
 * Supported subset of CEL: string/int/bool/null literals, `resources` (a list of plain resource
 * objects), field access (`r.metadata.name`, `r.metadata.labels['app']`), `!`, `-`, `&&`, `||`,
 * `==`, `!=`, `<`, `<=`, `>`, `>=`, `+`, `in`, `? :`, the macros `exists`, `all`, `exists_one`,
 * `filter`, `map`, and `size()`, `has()`, `startsWith()`, `endsWith()`, `contains()`, `matches()`,
 * `lowerAscii()`, `upperAscii()`, `string()`, `int()`.
 * A missing field reads as absent (never equal to anything) instead of raising CEL's "no such key".
 */

type Value = unknown;
type Env = ReadonlyMap<string, Value>;
type Node = (env: Env) => Value;

const ABSENT = Symbol("absent");

/** A `when` expression that cannot be parsed or evaluated; the message names the problem. */
export class WhenConditionError extends Error {}

const TOKEN =
  /\s*(?:(\d+)|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|([A-Za-z_][A-Za-z0-9_]*)|(&&|\|\||==|!=|<=|>=|[-+!<>()[\].,?:]))/y;

function tokenize(src: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  let pos = 0;
  while (pos < src.length) {
    if (/^\s*$/.test(src.slice(pos))) break;
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(src);
    if (!m) throw new WhenConditionError(`unexpected character at offset ${pos} in ${JSON.stringify(src)}`);
    out.push(m[0].trim());
    pos = TOKEN.lastIndex;
  }
  return out;
}

function unquote(tok: string): string {
  return tok.slice(1, -1).replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c));
}

function truthy(v: Value, what: string): boolean {
  if (typeof v !== "boolean") throw new WhenConditionError(`${what} is not a bool`);
  return v;
}

function equal(a: Value, b: Value): boolean {
  if (a === ABSENT || b === ABSENT) return false;
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null)
    return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

function member(obj: Value, key: Value): Value {
  if (Array.isArray(obj) && typeof key === "number") return key in obj ? obj[key] : ABSENT;
  if (typeof obj === "object" && obj !== null && typeof key === "string" && Object.hasOwn(obj, key))
    return (obj as Record<string, unknown>)[key];
  return ABSENT;
}

const MACROS = new Set(["exists", "all", "exists_one", "filter", "map"]);

class Parser {
  private i = 0;
  constructor(private readonly toks: string[]) {}

  private peek(): string | undefined {
    return this.toks[this.i];
  }
  private take(expected?: string): string {
    const tok = this.toks[this.i++];
    if (tok === undefined || (expected !== undefined && tok !== expected))
      throw new WhenConditionError(
        `expected ${expected ?? "more input"} but found ${tok ?? "end of expression"}`,
      );
    return tok;
  }

  parseAll(): Node {
    const node = this.ternary();
    if (this.i < this.toks.length) throw new WhenConditionError(`unexpected ${this.toks[this.i]}`);
    return node;
  }

  private ternary(): Node {
    const cond = this.binary(0);
    if (this.peek() !== "?") return cond;
    this.take("?");
    const a = this.ternary();
    this.take(":");
    const b = this.ternary();
    return (env) => (truthy(cond(env), "condition") ? a(env) : b(env));
  }

  private static readonly LEVELS: string[][] = [
    ["||"],
    ["&&"],
    ["==", "!=", "<", "<=", ">", ">=", "in"],
    ["+", "-"],
  ];

  private binary(level: number): Node {
    if (level >= Parser.LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const op = this.peek();
      if (op === undefined || !Parser.LEVELS[level]?.includes(op)) return left;
      this.take();
      const right = this.binary(level + 1);
      const l = left;
      left = (env) => binaryOp(op, l, right, env);
    }
  }

  private unary(): Node {
    const tok = this.peek();
    if (tok === "!") {
      this.take();
      const inner = this.unary();
      return (env) => !truthy(inner(env), "operand of !");
    }
    if (tok === "-") {
      this.take();
      const inner = this.unary();
      return (env) => -Number(inner(env));
    }
    return this.postfix(this.primary());
  }

  private primary(): Node {
    const tok = this.take();
    if (/^\d+$/.test(tok)) return () => Number(tok);
    if (tok.startsWith("'") || tok.startsWith('"')) {
      const s = unquote(tok);
      return () => s;
    }
    if (tok === "(") {
      const inner = this.ternary();
      this.take(")");
      return inner;
    }
    if (tok === "[") {
      const items: Node[] = [];
      while (this.peek() !== "]") {
        items.push(this.ternary());
        if (this.peek() === ",") this.take(",");
      }
      this.take("]");
      return (env) => items.map((n) => n(env));
    }
    if (tok === "true" || tok === "false") return () => tok === "true";
    if (tok === "null") return () => null;
    if (/^[A-Za-z_]/.test(tok)) {
      if (this.peek() === "(") return this.call(tok, undefined);
      return (env) => {
        if (!env.has(tok)) throw new WhenConditionError(`undeclared reference to ${JSON.stringify(tok)}`);
        return env.get(tok);
      };
    }
    throw new WhenConditionError(`unexpected ${tok}`);
  }

  private postfix(node: Node): Node {
    for (;;) {
      const tok = this.peek();
      if (tok === ".") {
        this.take();
        const name = this.take();
        if (this.peek() === "(") node = this.call(name, node);
        else {
          const target = node;
          node = (env) => member(target(env), name);
        }
      } else if (tok === "[") {
        this.take();
        const key = this.ternary();
        this.take("]");
        const target = node;
        node = (env) => member(target(env), key(env));
      } else return node;
    }
  }

  private call(name: string, target: Node | undefined): Node {
    this.take("(");
    if (target && MACROS.has(name)) {
      const variable = this.take();
      this.take(",");
      const body = this.ternary();
      this.take(")");
      return (env) => macro({ name, list: target(env), variable, body, env });
    }
    const args: Node[] = [];
    while (this.peek() !== ")") {
      args.push(this.ternary());
      if (this.peek() === ",") this.take(",");
    }
    this.take(")");
    const all = target ? [target, ...args] : args;
    if (name === "has") {
      const arg = all[0];
      if (!arg) throw new WhenConditionError("has() needs a field");
      return (env) => arg(env) !== ABSENT;
    }
    return (env) =>
      builtin(
        name,
        all.map((n) => n(env)),
      );
  }
}

function binaryOp(op: string, l: Node, r: Node, env: Env): Value {
  if (op === "&&") return truthy(l(env), "operand of &&") && truthy(r(env), "operand of &&");
  if (op === "||") return truthy(l(env), "operand of ||") || truthy(r(env), "operand of ||");
  const a = l(env);
  const b = r(env);
  switch (op) {
    case "==":
      return equal(a, b);
    case "!=":
      return !equal(a, b);
    case "in":
      if (Array.isArray(b)) return b.some((x) => equal(a, x));
      return typeof a === "string" && member(b, a) !== ABSENT;
    case "+":
      if (a === ABSENT || b === ABSENT) return ABSENT;
      if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
      return (a as number) + (b as number);
    case "-":
      if (a === ABSENT || b === ABSENT) return ABSENT;
      return (a as number) - (b as number);
    default: {
      if (a === ABSENT || b === ABSENT) return false;
      const x = a as number;
      const y = b as number;
      return op === "<" ? x < y : op === "<=" ? x <= y : op === ">" ? x > y : x >= y;
    }
  }
}

function macro(opts: { name: string; list: Value; variable: string; body: Node; env: Env }): Value {
  const { name, variable, body, env } = opts;
  const list = Array.isArray(opts.list)
    ? opts.list
    : typeof opts.list === "object" && opts.list !== null
      ? Object.keys(opts.list)
      : [];
  const run = (item: Value): Value => body(new Map([...env, [variable, item]]));
  switch (name) {
    case "exists":
      return list.some((x) => truthy(run(x), "exists() body"));
    case "all":
      return list.every((x) => truthy(run(x), "all() body"));
    case "exists_one":
      return list.filter((x) => truthy(run(x), "exists_one() body")).length === 1;
    case "filter":
      return list.filter((x) => truthy(run(x), "filter() body"));
    default:
      return list.map(run);
  }
}

function builtin(name: string, args: Value[]): Value {
  const [a, b] = args;
  switch (name) {
    case "size":
      if (typeof a === "string" || Array.isArray(a)) return a.length;
      if (typeof a === "object" && a !== null) return Object.keys(a).length;
      return 0;
    case "startsWith":
      return typeof a === "string" && typeof b === "string" && a.startsWith(b);
    case "endsWith":
      return typeof a === "string" && typeof b === "string" && a.endsWith(b);
    case "contains":
      return typeof a === "string" && typeof b === "string" && a.includes(b);
    case "matches":
      return typeof a === "string" && typeof b === "string" && new RegExp(b).test(a);
    case "lowerAscii":
      return typeof a === "string" ? a.toLowerCase() : a;
    case "upperAscii":
      return typeof a === "string" ? a.toUpperCase() : a;
    case "string":
      return a === ABSENT ? a : typeof a === "string" ? a : JSON.stringify(a);
    case "int": {
      if (a === ABSENT) return a;
      const n = typeof a === "number" ? Math.trunc(a) : Number.parseInt(String(a), 10);
      if (Number.isNaN(n)) throw new WhenConditionError(`int() of ${JSON.stringify(a)}`);
      return n;
    }
    default:
      throw new WhenConditionError(`unsupported function ${name}()`);
  }
}

/**
 * Evaluates a step's `when` expression with `resources` bound to the given plain resource objects.
 * @returns whether the step should run.
 * @throws WhenConditionError when the expression does not parse, uses an unsupported function, or is
 *   not a bool.
 */
export function evaluateWhen(expression: string, resources: readonly unknown[]): boolean {
  const node = new Parser(tokenize(expression)).parseAll();
  const value = node(new Map([["resources", resources]]));
  if (typeof value !== "boolean")
    throw new WhenConditionError(`expression ${JSON.stringify(expression)} does not evaluate to a bool`);
  return value;
}
