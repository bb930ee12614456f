/**
 * `status.conditions` of the root Kptfile after a render, as kpt's render status update does it: the
 * previous `Rendered` condition is removed, every other condition (e.g. a readiness gate's `Ready`,
 * set by a controller or by hand) is kept in its order, and the new `Rendered` condition goes last.
 * Conditions are kpt's typed struct: only `type`, `status`, `reason` and `message` survive.
 */
import type { KptfileCondition } from "./status.js";

function isStatus(value: string): value is KptfileCondition["status"] {
  return value === "True" || value === "False" || value === "Unknown";
}

function conditionOf(value: unknown): KptfileCondition | undefined {
  if (!value || typeof value !== "object") return undefined;
  const raw = value as Record<string, unknown>;
  if (typeof raw.type !== "string" || raw.type === "") return undefined;
  const status = String(raw.status ?? "");
  const condition: KptfileCondition = {
    type: raw.type,
    status: isStatus(status) ? status : "Unknown",
  };
  if (typeof raw.reason === "string" && raw.reason !== "") condition.reason = raw.reason;
  if (typeof raw.message === "string" && raw.message !== "") condition.message = raw.message;
  return condition;
}

/**
 * The conditions to write: those of `previousStatus` (the Kptfile's `status` as read, any shape)
 * other than `Rendered`, then `rendered`.
 */
export function mergeRenderedCondition(
  previousStatus: unknown,
  rendered: KptfileCondition,
): KptfileCondition[] {
  const previous =
    previousStatus && typeof previousStatus === "object"
      ? (previousStatus as { conditions?: unknown }).conditions
      : undefined;
  const kept = Array.isArray(previous)
    ? previous.map(conditionOf).filter((c): c is KptfileCondition => c !== undefined && c.type !== "Rendered")
    : [];
  return [...kept, rendered];
}
