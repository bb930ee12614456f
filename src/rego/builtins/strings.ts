/** OPA's string builtins, `sprintf` with Go's fmt verbs, regex (RE2 via re2js) and glob. */
import { compileRe2, Re2SyntaxError } from "../../krm/re2.js";
import { BuiltinError } from "../errors.js";
import { formatNumber, RSet, toRegoString, type Value } from "../values.js";
import { arr, coll, def, int, num, str, typeErr } from "./registry.js";

def("concat", 2, (a, ctx) => {
  const sep = str("concat", a, 0);
  const v = a[1] as Value;
  if (!Array.isArray(v) && !(v instanceof RSet))
    throw new BuiltinError(
      "`concat` expects array/set of strings. (operand 2 must be array or set of strings)",
    );
  const parts = coll("concat", a, 1, "expects");
  for (const p of parts)
    if (typeof p !== "string") throw new BuiltinError("`concat` expects array/set of strings.");
  const out = (v instanceof RSet ? [...v.sorted()] : parts).join(sep);
  ctx.meter.alloc(out.length);
  return out;
});
def("contains", 2, (a) => str("contains", a, 0).includes(str("contains", a, 1)));
def("startswith", 2, (a) => str("startswith", a, 0).startsWith(str("startswith", a, 1)));
def("endswith", 2, (a) => str("endswith", a, 0).endsWith(str("endswith", a, 1)));
def("lower", 1, (a) => str("lower", a, 0).toLowerCase());
def("upper", 1, (a) => str("upper", a, 0).toUpperCase());
def("indexof", 2, (a) => {
  const s = [...str("indexof", a, 0)];
  const sub = [...str("indexof", a, 1)];
  if (sub.length === 0) return s.length === 0 ? -1 : 0;
  outer: for (let i = 0; i + sub.length <= s.length; i++) {
    for (let j = 0; j < sub.length; j++) if (s[i + j] !== sub[j]) continue outer;
    return i;
  }
  return -1;
});
def("indexof_n", 2, (a) => {
  const s = [...str("indexof_n", a, 0)];
  const sub = [...str("indexof_n", a, 1)];
  const out: number[] = [];
  outer: for (let i = 0; i + sub.length <= s.length; i++) {
    for (let j = 0; j < sub.length; j++) if (s[i + j] !== sub[j]) continue outer;
    out.push(i);
  }
  return Object.freeze(out);
});
def("replace", 3, (a, ctx) => {
  const out = str("replace", a, 0)
    .split(str("replace", a, 1))
    .join(str("replace", a, 2));
  ctx.meter.alloc(out.length);
  return out;
});
def("strings.replace_n", 2, (a) => {
  const o = a[0] as Value;
  let s = str("strings.replace_n", a, 1);
  if (!(o && typeof o === "object" && "sortedEntries" in o))
    throw typeErr("strings.replace_n", 0, "object", o);
  for (const [k, v] of o.sortedEntries()) {
    if (typeof k !== "string" || typeof v !== "string")
      throw new BuiltinError("strings.replace_n: operand 1 must be object[string: string]");
    s = s.split(k).join(v);
  }
  return s;
});
def("split", 2, (a) => {
  const s = str("split", a, 0);
  const d = str("split", a, 1);
  if (d === "") return Object.freeze([...s]);
  return Object.freeze(s.split(d));
});
def("substring", 3, (a) => {
  const s = [...str("substring", a, 0)];
  const start = int("substring", a, 1);
  const len = int("substring", a, 2);
  if (start < 0) throw new BuiltinError("negative offset");
  if (start >= s.length) return "";
  return (len < 0 ? s.slice(start) : s.slice(start, start + len)).join("");
});
function cutset(s: string, cs: string, left: boolean, right: boolean): string {
  const set = new Set(cs);
  const chars = [...s];
  let i = 0;
  let j = chars.length;
  if (left) while (i < j && set.has(chars[i] as string)) i++;
  if (right) while (j > i && set.has(chars[j - 1] as string)) j--;
  return chars.slice(i, j).join("");
}
def("trim", 2, (a) => cutset(str("trim", a, 0), str("trim", a, 1), true, true));
def("trim_left", 2, (a) => cutset(str("trim_left", a, 0), str("trim_left", a, 1), true, false));
def("trim_right", 2, (a) => cutset(str("trim_right", a, 0), str("trim_right", a, 1), false, true));
def("trim_prefix", 2, (a) => {
  const s = str("trim_prefix", a, 0);
  const p = str("trim_prefix", a, 1);
  return s.startsWith(p) ? s.slice(p.length) : s;
});
def("trim_suffix", 2, (a) => {
  const s = str("trim_suffix", a, 0);
  const p = str("trim_suffix", a, 1);
  return p !== "" && s.endsWith(p) ? s.slice(0, s.length - p.length) : s;
});
def("trim_space", 1, (a) => str("trim_space", a, 0).replace(/^[\s\u0085]+|[\s\u0085]+$/gu, ""));
def("strings.reverse", 1, (a) => [...str("strings.reverse", a, 0)].reverse().join(""));
def("strings.count", 2, (a) => {
  const s = str("strings.count", a, 0);
  const sub = str("strings.count", a, 1);
  if (sub === "") return [...s].length + 1;
  return s.split(sub).length - 1;
});
function strList(name: string, v: Value, i: number): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v) || v instanceof RSet) {
    const xs = v instanceof RSet ? [...v.values()] : (v as Value[]);
    return xs.map((x) => {
      if (typeof x !== "string") throw typeErr(name, i, "string, array of strings or set of strings", x);
      return x;
    });
  }
  throw typeErr(name, i, "string, array of strings or set of strings", v);
}
def("strings.any_prefix_match", 2, (a) => {
  const ss = strList("strings.any_prefix_match", a[0] as Value, 0);
  const ps = strList("strings.any_prefix_match", a[1] as Value, 1);
  return ss.some((s) => ps.some((p) => s.startsWith(p)));
});
def("strings.any_suffix_match", 2, (a) => {
  const ss = strList("strings.any_suffix_match", a[0] as Value, 0);
  const ps = strList("strings.any_suffix_match", a[1] as Value, 1);
  return ss.some((s) => ps.some((p) => s.endsWith(p)));
});
def("format_int", 2, (a) => {
  const n = num("format_int", a, 0);
  const base = int("format_int", a, 1);
  if (![2, 8, 10, 16].includes(base))
    throw new BuiltinError(
      "`format_int` expects base to be one of 2, 8, 10, 16 (operand 2 must be one of {2, 8, 10, 16})",
    );
  const t = Math.trunc(n);
  return t.toString(base);
});

// ---- sprintf ------------------------------------------------------------------------------------

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
    i++;
    let left = false;
    let zero = false;
    let plus = false;
    let sharp = false;
    let space = false;
    for (; i < format.length; i++) {
      const f = format[i];
      if (f === "-") left = true;
      else if (f === "0") zero = true;
      else if (f === "+") plus = true;
      else if (f === "#") sharp = true;
      else if (f === " ") space = true;
      else break;
    }
    let width: number | undefined;
    let ws = "";
    while (i < format.length && /[0-9]/.test(format[i] as string)) ws += format[i++];
    if (ws) width = Number(ws);
    let prec: number | undefined;
    if (format[i] === ".") {
      i++;
      let ps = "";
      while (i < format.length && /[0-9]/.test(format[i] as string)) ps += format[i++];
      prec = ps ? Number(ps) : 0;
    }
    const verb = format[i];
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
    const v = args[ai++] as Value;
    let s: string;
    switch (verb) {
      case "v":
        s = typeof v === "number" ? formatNumber(v) : toRegoString(v);
        break;
      case "s":
        s = typeof v === "string" ? v : toRegoString(v);
        if (prec !== undefined) s = [...s].slice(0, prec).join("");
        break;
      case "q":
        s = typeof v === "string" ? JSON.stringify(v) : `%!q(${toRegoString(v)})`;
        break;
      case "d":
        if (typeof v === "number" && Number.isInteger(v))
          s = (plus && v >= 0 ? "+" : space && v >= 0 ? " " : "") + String(v);
        else
          s =
            typeof v === "number"
              ? `%!d(float64=${formatNumber(v)})`
              : `%!d(${goTypeName(v)}=${toRegoString(v)})`;
        break;
      case "f":
      case "F":
      case "e":
      case "E":
      case "g":
      case "G":
        s =
          typeof v === "number"
            ? (plus && v >= 0 ? "+" : "") + goFloat(v, verb, prec)
            : `%!${verb}(${goTypeName(v)}=${toRegoString(v)})`;
        break;
      case "x":
      case "X":
      case "o":
      case "b": {
        const base = verb === "o" ? 8 : verb === "b" ? 2 : 16;
        if (typeof v === "number" && Number.isInteger(v)) {
          s = Math.abs(v).toString(base);
          if (sharp) s = (verb === "o" ? "0" : verb === "b" ? "0b" : "0x") + s;
          if (v < 0) s = `-${s}`;
        } else if (typeof v === "string" && base === 16) s = Buffer.from(v, "utf8").toString("hex");
        else s = `%!${verb}(${goTypeName(v)}=${toRegoString(v)})`;
        if (verb === "X") s = s.toUpperCase();
        break;
      }
      case "t":
        s = typeof v === "boolean" ? String(v) : `%!t(${goTypeName(v)}=${toRegoString(v)})`;
        break;
      case "T":
        s = goTypeName(v);
        break;
      default:
        s = `%!${verb}(${goTypeName(v)}=${toRegoString(v)})`;
    }
    out += pad(s, width, left, zero && !left && verb !== "s" && verb !== "v");
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

// ---- regex --------------------------------------------------------------------------------------

function re(name: string, pattern: string) {
  try {
    return compileRe2(pattern);
  } catch (e) {
    if (e instanceof Re2SyntaxError) throw new BuiltinError(`${name}: ${e.message}`);
    throw e;
  }
}
def("regex.match", 2, (a) => re("regex.match", str("regex.match", a, 0)).test(str("regex.match", a, 1)));
def("re_match", 2, (a) => re("re_match", str("re_match", a, 0)).test(str("re_match", a, 1)));
def("regex.is_valid", 1, (a) => {
  const p = a[0];
  if (typeof p !== "string") return false;
  try {
    compileRe2(p);
    return true;
  } catch {
    return false;
  }
});
def("regex.split", 2, (a) =>
  Object.freeze(re("regex.split", str("regex.split", a, 0)).split(str("regex.split", a, 1), -1)),
);
def("regex.find_n", 3, (a) =>
  Object.freeze(
    re("regex.find_n", str("regex.find_n", a, 0)).findAll(
      str("regex.find_n", a, 1),
      int("regex.find_n", a, 2),
    ),
  ),
);
def("regex.find_all_string_submatch_n", 3, (a) => {
  const r = re("regex.find_all_string_submatch_n", str("regex.find_all_string_submatch_n", a, 0));
  const s = str("regex.find_all_string_submatch_n", a, 1);
  const n = int("regex.find_all_string_submatch_n", a, 2);
  return Object.freeze(
    r.findAllSubmatchIndex(s, n).map((m) => {
      const groups: string[] = [];
      for (let g = 0; g < m.length; g += 2) groups.push((m[g] as number) < 0 ? "" : s.slice(m[g], m[g + 1]));
      return Object.freeze(groups);
    }),
  );
});
def("regex.replace", 3, (a) =>
  re("regex.replace", str("regex.replace", a, 1)).replaceAll(
    str("regex.replace", a, 0),
    str("regex.replace", a, 2),
  ),
);

// ---- glob ---------------------------------------------------------------------------------------

function escapeRe(c: string): string {
  return /[\\^$.|?*+()[\]{}]/.test(c) ? `\\${c}` : c;
}

/** Compiles a gobwas/glob pattern (OPA's glob.match) into an RE2 pattern. */
export function globToRe(pattern: string, delims: string[]): string {
  const d = delims.map(escapeRe).join("");
  const notDelim = d === "" ? "[\\s\\S]" : `[^${d}]`;
  let out = "";
  let i = 0;
  const parse = (inAlt: boolean): string => {
    let s = "";
    while (i < pattern.length) {
      const c = pattern[i] as string;
      if (c === "\\") {
        i++;
        if (i < pattern.length) s += escapeRe(pattern[i++] as string);
        continue;
      }
      if (c === "*") {
        if (pattern[i + 1] === "*") {
          s += "[\\s\\S]*";
          i += 2;
        } else {
          s += `${notDelim}*`;
          i++;
        }
        continue;
      }
      if (c === "?") {
        s += notDelim;
        i++;
        continue;
      }
      if (c === "[") {
        const end = pattern.indexOf("]", i + 1);
        if (end < 0) throw new BuiltinError("glob.match: unexpected end of input");
        let body = pattern.slice(i + 1, end);
        const neg = body.startsWith("!");
        if (neg) body = body.slice(1);
        s += `[${neg ? "^" : ""}${body.replace(/\\/g, "\\\\")}]`;
        i = end + 1;
        continue;
      }
      if (c === "{") {
        i++;
        const alts: string[] = [];
        for (;;) {
          alts.push(parse(true));
          if (pattern[i] === ",") {
            i++;
            continue;
          }
          if (pattern[i] === "}") {
            i++;
            break;
          }
          throw new BuiltinError("glob.match: unexpected end of input");
        }
        s += `(?:${alts.join("|")})`;
        continue;
      }
      if (inAlt && (c === "," || c === "}")) return s;
      s += escapeRe(c);
      i++;
    }
    return s;
  };
  out = parse(false);
  return `^${out}$`;
}

def("glob.match", 3, (a) => {
  const pattern = str("glob.match", a, 0);
  const dv = a[1] as Value;
  let delims: string[];
  if (dv === null) delims = [];
  else if (Array.isArray(dv)) {
    delims = dv.map((x) => {
      if (typeof x !== "string") throw typeErr("glob.match", 1, "array of strings", x);
      return x;
    });
    if (delims.length === 0) delims = ["."];
  } else throw typeErr("glob.match", 1, "array", dv);
  const m = str("glob.match", a, 2);
  return re("glob.match", globToRe(pattern, delims)).test(m);
});
def("glob.quote_meta", 1, (a) => str("glob.quote_meta", a, 0).replace(/[*?\\[\]{}]/g, (c) => `\\${c}`));
