/** OPA's string builtins (topdown/strings.go): concat, search, replace, split, trim, format_int... (`sprintf` is in sprintf.ts, regex and glob in theirs). */
import { BuiltinError } from "../errors.js";
import { RSet, type Value } from "../values.js";
import { coll, def, int, num, str, typeErr } from "./registry.js";

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
