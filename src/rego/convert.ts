/** Rego values to and from JavaScript, JSON text, and OPA's printed form (OPA's `ast.InterfaceToValue`, `ast.JSON`, `String`). */
import { RObject, RSet, type Value } from "./values.js";

/** Converts a JSON-like JS value (from YAML/JSON input) into a Rego value. Non-JSON values throw. */
export function fromJS(x: unknown): Value {
  if (x === null || x === undefined) return null;
  switch (typeof x) {
    case "string":
    case "boolean":
      return x;
    case "number":
      return x;
    case "bigint":
      return Number(x);
    default:
      break;
  }
  if (Array.isArray(x)) return Object.freeze(x.map(fromJS));
  if (x instanceof RObject || x instanceof RSet) return x;
  if (x instanceof Set) return new RSet([...x].map(fromJS));
  if (x instanceof Map) return new RObject([...x].map(([k, v]) => [fromJS(k), fromJS(v)] as const));
  if (x instanceof Date) return x.toISOString();
  if (typeof x === "object") {
    const o = new RObject();
    for (const [k, v] of Object.entries(x as Record<string, unknown>)) o.set(k, fromJS(v));
    return o;
  }
  throw new TypeError(`cannot convert ${typeof x} to a Rego value`);
}

/**
 * Converts a Rego value into plain JSON-like JS: objects become plain objects (a non-string key is
 * written as its JSON text, as OPA's JSON output does), sets become arrays sorted in OPA's order.
 */
export function toJS(v: Value): unknown {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(toJS);
  if (v instanceof RSet) return v.sorted().map(toJS);
  const out: Record<string, unknown> = {};
  for (const [k, e] of (v as RObject).sortedEntries()) {
    out[typeof k === "string" ? k : toJSON(k)] = toJS(e);
  }
  return out;
}

/** Formats a number as OPA/Go's JSON does (integers without a fraction, 1e21 and beyond in exponent form). */
export function formatNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return Object.is(n, -0) ? "0" : String(n);
  if (!Number.isFinite(n)) return String(n);
  const s = String(n);
  return s.replace(/e\+?/, "e+").replace("e+-", "e-");
}

/** JSON text of a value, as OPA's `json.marshal`: object keys sorted, sets as sorted arrays. */
export function toJSON(v: Value): string {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return String(v);
    case "number":
      return formatNumber(v);
    case "string":
      return JSON.stringify(v);
    default:
      break;
  }
  if (Array.isArray(v)) return `[${v.map(toJSON).join(",")}]`;
  if (v instanceof RSet) return `[${v.sorted().map(toJSON).join(",")}]`;
  return `{${(v as RObject)
    .sortedEntries()
    .map(([k, e]) => `${typeof k === "string" ? JSON.stringify(k) : JSON.stringify(toJSON(k))}:${toJSON(e)}`)
    .join(",")}}`;
}

/**
 * A value in Rego syntax, as OPA prints terms (`sprintf("%v")`, error texts): strings quoted inside
 * composites, sets as `{1, 2}`, the empty set `set()`. `topString` false quotes a top-level string too.
 */
export function toRegoString(v: Value, topLevel = true): string {
  if (typeof v === "string") return topLevel ? v : JSON.stringify(v);
  if (v === null || typeof v !== "object") return toJSON(v);
  if (Array.isArray(v)) return `[${v.map((e) => toRegoString(e, false)).join(", ")}]`;
  if (v instanceof RSet)
    return v.size === 0
      ? "set()"
      : `{${v
          .sorted()
          .map((e) => toRegoString(e, false))
          .join(", ")}}`;
  return `{${(v as RObject)
    .sortedEntries()
    .map(([k, e]) => `${toRegoString(k, false)}: ${toRegoString(e, false)}`)
    .join(", ")}}`;
}
