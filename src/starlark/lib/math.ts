/**
 * The `math` module as go.starlark.net provides it (lib/math): float functions of float or int
 * arguments, ceil/floor returning ints, and the constants e and pi.
 */
import { unpackPositional } from "../eval/args.js";
import {
  Builtin,
  Float,
  fail,
  isInt,
  Module,
  numberToInt,
  StarlarkError,
  typeName,
  type Value,
} from "../eval/values.js";

const floatOrInt = (v: Value): number => {
  if (isInt(v)) return Number(v);
  if (v instanceof Float) return v.v;
  throw new StarlarkError(`got ${typeName(v)}, want float or int`);
};

function unary(name: string, fn: (x: number) => number): Builtin {
  return new Builtin(name, (_th, args, kwargs) => {
    const [x] = unpackPositional(name, args, kwargs, 1, [floatOrInt]) as [number];
    return new Float(fn(x));
  });
}

function binary(name: string, fn: (x: number, y: number) => number): Builtin {
  return new Builtin(name, (_th, args, kwargs) => {
    const [x, y] = unpackPositional(name, args, kwargs, 2, [floatOrInt, floatOrInt]) as [number, number];
    return new Float(fn(x, y));
  });
}

function rounding(name: string, fn: (x: number) => number): Builtin {
  return new Builtin(name, (_th, args, kwargs) => {
    const [x] = unpackPositional(name, args, kwargs, 1, [undefined]) as [Value];
    if (isInt(x)) return x;
    if (x instanceof Float) return numberToInt(new Float(fn(x.v)));
    return fail(`got ${typeName(x)}, want float or int`);
  });
}

/** IEEE 754 remainder (Go's math.Remainder): x - n*y with n = round-half-even(x/y). */
function remainder(x: number, y: number): number {
  if (Number.isNaN(x) || Number.isNaN(y) || !Number.isFinite(x) || y === 0) return Number.NaN;
  if (!Number.isFinite(y)) return x;
  const q = x / y;
  let n = Math.round(q);
  if (Math.abs(q - Math.trunc(q)) === 0.5) n = 2 * Math.round(q / 2);
  const r = x - n * y;
  return r === 0 ? Math.sign(x) * 0 : r;
}

/** Go's math.Round: half away from zero. */
function round(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.sign(x) * Math.round(Math.abs(x));
  return r === 0 ? Math.sign(x) * 0 : r;
}

function copysign(x: number, y: number): number {
  const neg = y < 0 || Object.is(y, -0) || (Number.isNaN(y) && 1 / y < 0);
  return neg ? -Math.abs(x) : Math.abs(x);
}

/** Lanczos approximation of the gamma function (Go's math.Gamma special cases). */
function gamma(x: number): number {
  if (Number.isNaN(x) || x === -Infinity) return Number.NaN;
  if (x === Infinity) return Infinity;
  if (x === 0) return Object.is(x, -0) ? -Infinity : Infinity;
  if (x < 0 && Number.isInteger(x)) return Number.NaN;
  if (Number.isInteger(x) && x <= 171) {
    let r = 1;
    for (let i = 2; i < x; i++) r *= i;
    return r;
  }
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * gamma(1 - x));
  const g = 7;
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  const y = x - 1;
  let a = c[0]!;
  const t = y + g + 0.5;
  for (let i = 1; i < g + 2; i++) a += c[i]! / (y + i);
  return Math.sqrt(2 * Math.PI) * t ** (y + 0.5) * Math.exp(-t) * a;
}

const log = new Builtin("log", (_th, args, kwargs) => {
  const [x, base] = unpackPositional("log", args, kwargs, 1, [floatOrInt, floatOrInt]) as [number, number?];
  const b = base ?? Math.E;
  if (b === 1) fail("division by zero");
  return new Float(Math.log(x) / Math.log(b));
});

/** The `math` module value. */
export const mathModule = new Module(
  "math",
  new Map<string, Value>([
    ["ceil", rounding("ceil", Math.ceil)],
    ["copysign", binary("copysign", copysign)],
    ["fabs", unary("fabs", Math.abs)],
    ["floor", rounding("floor", Math.floor)],
    ["mod", binary("mod", (x, y) => x % y)],
    ["pow", binary("pow", (x, y) => (x === 1 ? 1 : x ** y))],
    ["remainder", binary("remainder", remainder)],
    ["round", unary("round", round)],
    ["exp", unary("exp", Math.exp)],
    ["sqrt", unary("sqrt", Math.sqrt)],
    ["acos", unary("acos", Math.acos)],
    ["asin", unary("asin", Math.asin)],
    ["atan", unary("atan", Math.atan)],
    ["atan2", binary("atan2", Math.atan2)],
    ["cos", unary("cos", Math.cos)],
    ["hypot", binary("hypot", Math.hypot)],
    ["sin", unary("sin", Math.sin)],
    ["tan", unary("tan", Math.tan)],
    ["degrees", unary("degrees", (x) => (360 * x) / (2 * Math.PI))],
    ["radians", unary("radians", (x) => (2 * Math.PI * x) / 360)],
    ["acosh", unary("acosh", Math.acosh)],
    ["asinh", unary("asinh", Math.asinh)],
    ["atanh", unary("atanh", Math.atanh)],
    ["cosh", unary("cosh", Math.cosh)],
    ["sinh", unary("sinh", Math.sinh)],
    ["tanh", unary("tanh", Math.tanh)],
    ["log", log],
    ["gamma", unary("gamma", gamma)],
    ["e", new Float(Math.E)],
    ["pi", new Float(Math.PI)],
  ]),
);
