/**
 * Argument unpacking for built-ins (go.starlark.net's UnpackArgs / UnpackPositionalArgs), with the
 * same error messages ("f: for parameter x: got int, want string", "f: missing argument for x", ...).
 */
import { nearest } from "../internal/spell.js";
import {
  asInt64,
  isInt,
  type Kwargs,
  List,
  None,
  repr,
  StarlarkError,
  typeName,
  type Value,
} from "./values.js";

/** Converts an argument value; throws a StarlarkError with a bare message ("got T, want U"). */
export type Conv<R> = (v: Value) => R;

/** A parameter of {@link unpackArgs}: "name" (required), "name?" (optional), "name??" (optional, None = absent). */
export type ParamSpec = string | [string, Conv<unknown>];

function paramName(spec: string): { name: string; skipNone: boolean; optional: boolean } {
  if (spec.endsWith("??")) return { name: spec.slice(0, -2), skipNone: true, optional: true };
  if (spec.endsWith("?")) return { name: spec.slice(0, -1), skipNone: false, optional: true };
  return { name: spec, skipNone: false, optional: false };
}

function convert(fn: string, label: string | number, conv: Conv<unknown> | undefined, v: Value): unknown {
  if (conv === undefined) return v;
  try {
    return conv(v);
  } catch (e) {
    if (e instanceof StarlarkError) throw new StarlarkError(`${fn}: for parameter ${label}: ${e.message}`);
    throw e;
  }
}

/**
 * Unpacks positional and keyword arguments into parameters (go.starlark.net's UnpackArgs).
 * Returns one entry per parameter: the converted value, or undefined when absent.
 */
export function unpackArgs(fn: string, args: Value[], kwargs: Kwargs | null, params: ParamSpec[]): unknown[] {
  const n = params.length;
  const specs = params.map((p) =>
    typeof p === "string" ? { s: p, conv: undefined } : { s: p[0], conv: p[1] },
  );
  const names = specs.map((p) => paramName(p.s));
  const out: unknown[] = new Array(n).fill(undefined);
  const defined: boolean[] = new Array(n).fill(false);
  if (args.length > n) throw new StarlarkError(`${fn}: got ${args.length} arguments, want at most ${n}`);
  for (let i = 0; i < args.length; i++) {
    defined[i] = true;
    const { name, skipNone } = names[i]!;
    if (skipNone && args[i] === None) continue;
    out[i] = convert(fn, name, specs[i]!.conv, args[i]!);
  }
  if (kwargs !== null) {
    kw: for (const [k, v] of kwargs) {
      for (let i = 0; i < n; i++) {
        const { name, skipNone } = names[i]!;
        if (name === k) {
          // (go.starlark.net formats a keyword's name as a Starlark string: quoted)
          if (defined[i]) {
            throw new StarlarkError(`${fn}: got multiple values for keyword argument ${repr(k)}`);
          }
          defined[i] = true;
          if (skipNone && v === None) continue kw;
          out[i] = convert(fn, repr(k), specs[i]!.conv, v);
          continue kw;
        }
      }
      let msg = `${fn}: unexpected keyword argument ${repr(k)}`;
      const cands: string[] = [];
      // (sic) go.starlark.net offers the first half of the names
      for (let i = 0; i < n; i += 2) cands.push(names[i / 2]!.name);
      const near = nearest(k, cands);
      if (near !== "") msg += ` (did you mean ${near}?)`;
      throw new StarlarkError(msg);
    }
  }
  for (let i = 0; i < n; i++) {
    if (names[i]!.optional) break;
    if (i < args.length) continue;
    if (!defined[i]) throw new StarlarkError(`${fn}: missing argument for ${names[i]!.name}`);
  }
  return out;
}

/** Checks the count of positional arguments and the absence of keywords (checkPositionalArgs). */
export function checkPositional(
  fn: string,
  args: Value[],
  kwargs: Kwargs | null,
  min: number,
  max: number,
): void {
  if (kwargs !== null && kwargs.length > 0) throw new StarlarkError(`${fn}: unexpected keyword arguments`);
  if (args.length < min) {
    throw new StarlarkError(
      `${fn}: got ${args.length} arguments, want ${min < max ? "at least " : ""}${min}`,
    );
  }
  if (args.length > max) {
    throw new StarlarkError(`${fn}: got ${args.length} arguments, want ${max > min ? "at most " : ""}${max}`);
  }
}

/**
 * Unpacks positional arguments only (UnpackPositionalArgs): at least `min`, at most `convs.length`;
 * returns converted values (undefined when absent).
 */
export function unpackPositional(
  fn: string,
  args: Value[],
  kwargs: Kwargs | null,
  min: number,
  convs: (Conv<unknown> | undefined)[],
): unknown[] {
  checkPositional(fn, args, kwargs, min, convs.length);
  const out: unknown[] = [];
  for (let i = 0; i < args.length; i++) out.push(convert(fn, i + 1, convs[i], args[i]!));
  return out;
}

// ---- converters ----

export const toStr: Conv<string> = (v) => {
  if (typeof v !== "string") throw new StarlarkError(`got ${typeName(v)}, want string`);
  return v;
};

export const toBool: Conv<boolean> = (v) => {
  if (typeof v !== "boolean") throw new StarlarkError(`got ${typeName(v)}, want bool`);
  return v;
};

/** A Go `int` parameter (64-bit). */
export const toInt: Conv<number> = (v) => asInt64(v);

export const toIterable: Conv<Value> = (v) => {
  if (typeof v !== "object" || v.iterate === undefined)
    throw new StarlarkError(`got ${typeName(v)}, want iterable`);
  return v;
};

export const toCallable: Conv<Value> = (v) => {
  if (typeof v !== "object" || v.callInternal === undefined) {
    throw new StarlarkError(`got ${typeName(v)}, want callable`);
  }
  return v;
};

export const toList: Conv<List> = (v) => {
  if (!(v instanceof List)) throw new StarlarkError(`got ${typeName(v)}, want list`);
  return v;
};

export const toAny: Conv<Value> = (v) => v;

/** An int parameter that may also be None (absent). */
export const toIntOrNone: Conv<number | undefined> = (v) => (v === None ? undefined : asInt64(v));

export { isInt };
