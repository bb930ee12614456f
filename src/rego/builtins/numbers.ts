/** OPA's comparison, arithmetic, numbers.range, rand and bits builtins (topdown/arithmetic.go, numbers.go, bits.go). */

import { toRegoString } from "../convert.js";
import { BuiltinError } from "../errors.js";
import { compare, equal, RSet, type Value } from "../values.js";
import { type BuiltinCtx, def, num, str, typeErr } from "./registry.js";

function arith(name: string, f: (a: number, b: number) => number): void {
  def(name, 2, (a) => {
    const x = num(name, a, 0);
    const y = num(name, a, 1);
    return f(x, y);
  });
}

// ---- comparison ---------------------------------------------------------------------------------
def("equal", 2, (a) => equal(a[0] as Value, a[1] as Value));
def("neq", 2, (a) => !equal(a[0] as Value, a[1] as Value));
def("lt", 2, (a) => compare(a[0] as Value, a[1] as Value) < 0);
def("gt", 2, (a) => compare(a[0] as Value, a[1] as Value) > 0);
def("lte", 2, (a) => compare(a[0] as Value, a[1] as Value) <= 0);
def("gte", 2, (a) => compare(a[0] as Value, a[1] as Value) >= 0);

// ---- numbers ------------------------------------------------------------------------------------
def("plus", 2, (a) => num("add", a, 0) + num("add", a, 1));
def("minus", 2, (a) => {
  const [x, y] = a as [Value, Value];
  if (x instanceof RSet && y instanceof RSet) {
    const out = new RSet();
    for (const [k, v] of x.map) if (!y.map.has(k)) out.add(v);
    return out;
  }
  if (typeof x === "number" && typeof y === "number") return x - y;
  if (x instanceof RSet || y instanceof RSet)
    throw typeErr("sub", x instanceof RSet ? 1 : 0, "set", x instanceof RSet ? y : x);
  throw typeErr("sub", typeof x === "number" ? 1 : 0, "numeric", typeof x === "number" ? y : x);
});
arith("mul", (x, y) => x * y);
def("div", 2, (a) => {
  const x = num("div", a, 0);
  const y = num("div", a, 1);
  if (y === 0) throw new BuiltinError("divide by zero");
  return x / y;
});
def("rem", 2, (a) => {
  const x = num("mod", a, 0);
  const y = num("mod", a, 1);
  if (!Number.isSafeInteger(x) || !Number.isSafeInteger(y))
    throw new BuiltinError("modulo on floating-point number");
  if (y === 0) throw new BuiltinError("modulo by zero");
  const r = x % y;
  return Object.is(r, -0) ? 0 : r;
});
def("abs", 1, (a) => Math.abs(num("abs", a, 0)));
def("round", 1, (a) => {
  const x = num("round", a, 0);
  return Math.sign(x) * Math.round(Math.abs(x));
});
def("ceil", 1, (a) => Math.ceil(num("ceil", a, 0)));
def("floor", 1, (a) => Math.floor(num("floor", a, 0)));
function range(name: string, a: Value[], step: number, ctx: BuiltinCtx): Value {
  const x = num(name, a, 0);
  const y = num(name, a, 1);
  if (!Number.isInteger(x) || !Number.isInteger(y))
    throw new BuiltinError(`\`${name}\` operands must be integers`);
  const out: number[] = [];
  if (x <= y) for (let i = x; i <= y; i += step) out.push(i);
  else for (let i = x; i >= y; i -= step) out.push(i);
  ctx.meter.alloc(out.length * 8);
  ctx.meter.step(out.length);
  return Object.freeze(out);
}
def("numbers.range", 2, (a, ctx) => {
  num("numbers.range", a, 0);
  num("numbers.range", a, 1);
  const n = Math.abs((a[1] as number) - (a[0] as number));
  ctx.meter.step(n);
  return range("numbers.range", a, 1, ctx);
});
def("numbers.range_step", 3, (a, ctx) => {
  const s = num("numbers.range_step", a, 2);
  if (!Number.isInteger(s) || s <= 0)
    throw new BuiltinError("numbers.range_step: step must be a positive integer");
  ctx.meter.step(Math.abs((num("numbers.range_step", a, 1) - num("numbers.range_step", a, 0)) / s));
  return range("numbers.range_step", a, s, ctx);
});
def("rand.intn", 2, (a) => {
  const seed = str("rand.intn", a, 0);
  const n = num("rand.intn", a, 1);
  if (!Number.isInteger(n)) return undefined;
  if (n === 0) return 0;
  let h = 2166136261;
  for (const c of `${seed}\u0000${n}`) h = Math.imul(h ^ (c.codePointAt(0) as number), 16777619) >>> 0;
  return h % Math.abs(n);
});
function bits(name: string, f: (x: bigint, y: bigint) => bigint): void {
  def(name, 2, (a) => {
    for (let i = 0; i < 2; i++) {
      const v = a[i] as Value;
      if (typeof v !== "number")
        throw new BuiltinError(
          `\`${name}\` expects numeric argument. Got \`${toRegoString(v, false)}\` instead`,
        );
      if (!Number.isInteger(v))
        throw new BuiltinError(
          `\`${name}\` expects integer argument. Got \`${toRegoString(v, false)}\` instead`,
        );
    }
    return Number(f(BigInt(a[0] as number), BigInt(a[1] as number)));
  });
}
bits("bits.and", (x, y) => x & y);
bits("bits.or", (x, y) => x | y);
bits("bits.xor", (x, y) => x ^ y);
bits("bits.lsh", (x, y) => x << y);
bits("bits.rsh", (x, y) => x >> y);
def("bits.negate", 1, (a) => {
  const v = a[0] as Value;
  if (typeof v !== "number")
    throw new BuiltinError(
      `\`bits.negate\` expects numeric argument. Got \`${toRegoString(v, false)}\` instead`,
    );
  if (!Number.isInteger(v))
    throw new BuiltinError(
      `\`bits.negate\` expects integer argument. Got \`${toRegoString(v, false)}\` instead`,
    );
  return Number(~BigInt(v));
});
