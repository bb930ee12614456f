/** OPA's `regex.*` builtins over RE2 (the krm RE2 compiler). */
import { compileRe2, Re2SyntaxError } from "../../krm/re2.js";
import { BuiltinError } from "../errors.js";
import { def, int, str } from "./registry.js";

export function re(name: string, pattern: string) {
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
