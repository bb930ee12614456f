/**
 * Porch readiness gates: a Kptfile lists `info.readinessGates[].conditionType`; the PackageRevision is
 * ready only when, for every gate, `status.conditions` holds a condition of that type with status
 * `"True"`. Porch leaves the check to its clients (it only refuses to approve a revision whose
 * conditions say otherwise in its own UI); porchlight enforces it in the merge gate.
 *
 * The `Rendered` condition is never taken from the file: it is whatever our own render of the exact
 * commit says (`renderedOk`), because a status written in the file can be hand-edited.
 */
import { parse } from "yaml";

/** One unmet readiness gate. */
export interface UnmetGate {
  conditionType: string;
  /** Why: `no condition "X"` or `condition "X" is "False" (reason: message)`. */
  message: string;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function list(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v): Record<string, unknown>[] => {
    const record = asRecord(v);
    return record ? [record] : [];
  });
}

/**
 * The readiness gates of `kptfileText` that are not met. `renderedOk` answers a `Rendered` gate.
 * A Kptfile that does not parse has no gates here (the render itself reports the parse error).
 */
export function unmetReadinessGates(kptfileText: string, renderedOk: boolean): UnmetGate[] {
  let doc: Record<string, unknown> | undefined;
  try {
    doc = asRecord(parse(kptfileText));
  } catch {
    return [];
  }
  const gates = list(asRecord(doc?.info)?.readinessGates)
    .map((g) => g.conditionType)
    .filter((t): t is string => typeof t === "string" && t !== "");
  const conditions = list(asRecord(doc?.status)?.conditions);
  const unmet: UnmetGate[] = [];
  for (const conditionType of [...new Set(gates)]) {
    if (conditionType === "Rendered") {
      if (!renderedOk)
        unmet.push({ conditionType, message: 'condition "Rendered" is "False" (our render failed)' });
      continue;
    }
    const found = conditions.filter((c) => c.type === conditionType);
    if (found.some((c) => c.status === "True")) continue;
    const last = found.at(-1);
    const detail = [last?.reason, last?.message].filter((x) => typeof x === "string" && x !== "").join(": ");
    unmet.push({
      conditionType,
      message: last
        ? `condition "${conditionType}" is ${JSON.stringify(String(last.status ?? "Unknown"))}${detail ? ` (${detail})` : ""}`
        : `no condition "${conditionType}" in status.conditions`,
    });
  }
  return unmet;
}
