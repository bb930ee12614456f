/** OPA's `sprintf`: Go's `fmt.Sprintf` verbs over Rego values. */
import { formatNumber, toRegoString } from "../convert.js";
import { RSet, type Value } from "../values.js";
import { arr, def, str } from "./registry.js";

function pad(s: string, width: number | undefined, left: boolean, zero: boolean): string {
  if (width === undefined || s.length >= width) return s;
  if (left) return s + " ".repeat(width - s.length);
  if (zero) {
    const neg = s.startsWith("-") || s.startsWith("+");
    const body = neg ? s.slice(1) : s;
    return (neg ? s[0] : "") + "0".repeat(width - s.length) + body;
  }
  return " ".repeat(width - s.length) + s;
}

function goFloat(n: number, verb: string, prec: number | undefined): string {
  switch (verb) {
    case "f":
    case "F":
      return n.toFixed(prec ?? 6);
    case "e":
    case "E": {
      const s = n.toExponential(prec ?? 6).replace(/e([+-])(\d)$/, "e$10$2");
      return verb === "E" ? s.toUpperCase() : s;
    }
    default: {
      // %g: shortest representation
      if (prec !== undefined) return String(Number(n.toPrecision(prec)));
      return formatNumber(n);
    }
  }
}

/** A parsed verb: `%[flags][width][.prec]verb`. */
interface Spec {
  left: boolean;
  zero: boolean;
  plus: boolean;
  sharp: boolean;
  space: boolean;
  width: number | undefined;
  prec: number | undefined;
  verb: string | undefined;
}

/** Parses the verb after a `%` at `i`; returns it and the index of its verb letter. */
function parseSpec(format: string, i: number): { spec: Spec; i: number } {
  const spec: Spec = {
    left: false,
    zero: false,
    plus: false,
    sharp: false,
    space: false,
    width: undefined,
    prec: undefined,
    verb: undefined,
  };
  const flags: Record<string, keyof Spec> = {
    "-": "left",
    "0": "zero",
    "+": "plus",
    "#": "sharp",
    " ": "space",
  };
  for (; i < format.length; i++) {
    const f = flags[format[i] as string];
    if (f === undefined) break;
    (spec as unknown as Record<string, boolean>)[f] = true;
  }
  let ws = "";
  while (i < format.length && /[0-9]/.test(format[i] as string)) ws += format[i++];
  if (ws) spec.width = Number(ws);
  if (format[i] === ".") {
    i++;
    let ps = "";
    while (i < format.length && /[0-9]/.test(format[i] as string)) ps += format[i++];
    spec.prec = ps ? Number(ps) : 0;
  }
  spec.verb = format[i];
  return { spec, i };
}

const bad = (verb: string, v: Value) => `%!${verb}(${goTypeName(v)}=${toRegoString(v)})`;

/** `%x %X %o %b`: an integer in base 16/8/2 (`#` adds 0x/0/0b), a string's bytes in hex. */
function formatBase(verb: string, v: Value, sharp: boolean): string {
  const base = verb === "o" ? 8 : verb === "b" ? 2 : 16;
  let s: string;
  if (typeof v === "number" && Number.isInteger(v)) {
    s = Math.abs(v).toString(base);
    if (sharp) s = (verb === "o" ? "0" : verb === "b" ? "0b" : "0x") + s;
    if (v < 0) s = `-${s}`;
  } else if (typeof v === "string" && base === 16) s = Buffer.from(v, "utf8").toString("hex");
  else s = bad(verb, v);
  return verb === "X" ? s.toUpperCase() : s;
}

/** One value formatted by its verb, before padding (Go's `fmt` verbs; a mismatch is written as Go does). */
function formatVerb(spec: Spec, verb: string, v: Value): string {
  const { plus, space, prec } = spec;
  switch (verb) {
    case "v":
      return typeof v === "number" ? formatNumber(v) : toRegoString(v);
    case "s": {
      const s = typeof v === "string" ? v : toRegoString(v);
      return prec !== undefined ? [...s].slice(0, prec).join("") : s;
    }
    case "q":
      return typeof v === "string" ? JSON.stringify(v) : `%!q(${toRegoString(v)})`;
    case "d":
      if (typeof v === "number" && Number.isInteger(v))
        return (plus && v >= 0 ? "+" : space && v >= 0 ? " " : "") + String(v);
      return typeof v === "number" ? `%!d(float64=${formatNumber(v)})` : bad("d", v);
    case "f":
    case "F":
    case "e":
    case "E":
    case "g":
    case "G":
      return typeof v === "number" ? (plus && v >= 0 ? "+" : "") + goFloat(v, verb, prec) : bad(verb, v);
    case "x":
    case "X":
    case "o":
    case "b":
      return formatBase(verb, v, spec.sharp);
    case "t":
      return typeof v === "boolean" ? String(v) : `%!t(${goTypeName(v)}=${toRegoString(v)})`;
    case "T":
      return goTypeName(v);
    default:
      return bad(verb, v);
  }
}

/** Go's `fmt.Sprintf` over Rego values, as OPA's `sprintf` passes them (numbers as Go ints/floats). */
export function goSprintf(format: string, args: readonly Value[]): string {
  let out = "";
  let ai = 0;
  for (let i = 0; i < format.length; i++) {
    const c = format[i] as string;
    if (c !== "%") {
      out += c;
      continue;
    }
    const parsed = parseSpec(format, i + 1);
    i = parsed.i;
    const { spec } = parsed;
    const verb = spec.verb;
    if (verb === undefined) {
      out += "%!(NOVERB)";
      break;
    }
    if (verb === "%") {
      out += "%";
      continue;
    }
    if (ai >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    const s = formatVerb(spec, verb, args[ai++] as Value);
    out += pad(s, spec.width, spec.left, spec.zero && !spec.left && verb !== "s" && verb !== "v");
  }
  if (ai < args.length) {
    out += `%!(EXTRA ${args
      .slice(ai)
      .map((v) => `${goTypeName(v)}=${toRegoString(v)}`)
      .join(", ")})`;
  }
  return out;
}

function goTypeName(v: Value): string {
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float64";
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (v === null) return "<nil>";
  if (Array.isArray(v)) return "ast.Array";
  return v instanceof RSet ? "ast.Set" : "ast.Object";
}

def("sprintf", 2, (a, ctx) => {
  const f = str("sprintf", a, 0);
  const xs = arr("sprintf", a, 1);
  const out = goSprintf(f, xs);
  ctx.meter.alloc(out.length);
  return out;
});
