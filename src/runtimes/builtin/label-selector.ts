/**
 * Kubernetes label selector strings (`app=web,tier!=db,env in (a,b),!legacy`), as kustomize's
 * `labelSelector` / `annotationSelector` use them, matched against a resource's labels or annotations.
 */

/** Splits on commas that are not inside parentheses. */
function requirements(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of selector) {
    if (ch === "(") depth += 1;
    if (ch === ")") depth -= 1;
    if (ch === "," && depth === 0) {
      out.push(cur.trim());
      cur = "";
    } else cur += ch;
  }
  if (cur.trim() !== "") out.push(cur.trim());
  return out;
}

function matchOne(req: string, values: ReadonlyMap<string, string>): boolean {
  const set = /^(\S+)\s+(in|notin)\s+\((.*)\)$/.exec(req);
  if (set) {
    const options = set[3].split(",").map((s) => s.trim());
    const has = values.has(set[1]) && options.includes(values.get(set[1]) ?? "");
    return set[2] === "in" ? has : !has;
  }
  const neq = /^([^!=\s]+)\s*!=\s*(.*)$/.exec(req);
  if (neq) return values.get(neq[1]) !== neq[2].trim();
  const eq = /^([^!=\s]+)\s*==?\s*(.*)$/.exec(req);
  if (eq) return values.get(eq[1]) === eq[2].trim();
  if (req.startsWith("!")) return !values.has(req.slice(1).trim());
  return values.has(req);
}

/** Whether `values` satisfy every requirement of `selector`; an empty selector matches everything. */
export function matchesSelector(selector: string | undefined, values: ReadonlyMap<string, string>): boolean {
  if (!selector || selector.trim() === "") return true;
  return requirements(selector).every((req) => matchOne(req, values));
}
