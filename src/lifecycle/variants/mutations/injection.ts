/**
 * 3. Config injection (Porch's `ensureConfigInjection`): inject into each injection point, write the
 * files that changed, and record every point as a Kptfile condition, required ones as readiness gates.
 */
import { type Document, isMap, isSeq, type YAMLMap } from "yaml";
import { serializeChanged } from "../../../krm/yaml-io.js";
import { type FileTree, KPTFILE } from "../../../pkg/files.js";
import { seqIndentOf } from "../../../pkg/resource-io.js";
import type { ValidVariant } from "../package-variant.js";
import { findInjectionPoints, type InjectionPoint, inject } from "./injection-points.js";
import { type Injectable, type InjectionResult, mapAt } from "./model.js";

/** Injects into every point of `files` (outside the Kptfile); rewrites the files injected into. */
function injectPoints(
  files: FileTree,
  pv: ValidVariant,
  injectables: readonly Injectable[],
): InjectionPoint[] {
  const points = findInjectionPoints(files).filter((p) => p.file !== KPTFILE);
  for (const p of points) {
    inject(p, pv.spec.injectors ?? [], injectables);
    if (p.injected) {
      p.result.status = "True";
      p.result.reason = "ConfigInjected";
      p.result.message = `injected resource ${JSON.stringify(p.injected)} from cluster`;
      const seq = seqIndentOf(files.get(p.file)!.toString("utf8"));
      files.set(p.file, Buffer.from(p.docs.map((d) => serializeChanged(d, seq)).join("---\n"), "utf8"));
    } else if (p.errors.length > 0) {
      p.result.message = p.errors.join(", ");
    }
  }
  return points;
}

/** `info.readinessGates`: the gates already there and the required points' conditions, sorted. */
function setReadinessGates(kptfile: Document, root: YAMLMap, points: readonly InjectionPoint[]): void {
  const required = points.filter((p) => p.result.required).map((p) => p.result.conditionType);
  const info = mapAt(root, "info");
  const gates = new Set<string>();
  const existingGates = info.get("readinessGates", true);
  if (isSeq(existingGates))
    for (const g of existingGates.items) if (isMap(g)) gates.add(String(g.get("conditionType")));
  for (const r of required) gates.add(r);
  if (gates.size > 0) {
    info.set(
      "readinessGates",
      kptfile.createNode([...gates].sort().map((conditionType) => ({ conditionType }))),
    );
  }
}

/** `status.conditions`: the conditions already there with each point's set over them, sorted by type. */
function setConditions(kptfile: Document, root: YAMLMap, points: readonly InjectionPoint[]): void {
  const status = mapAt(root, "status");
  const existing = status.get("conditions", true);
  const conditions = new Map<string, Record<string, string>>();
  if (isSeq(existing)) {
    for (const c of existing.items) {
      if (!isMap(c)) continue;
      const plain = c.toJSON() as Record<string, string>;
      conditions.set(String(plain.type), plain);
    }
  }
  for (const { result } of points) {
    const { conditionType: type, status: value, reason, message } = result;
    conditions.set(type, { type, status: value, reason, message });
  }
  const sorted = [...conditions.keys()].sort().map((type) => {
    const c = conditions.get(type)!;
    const out: Record<string, string> = { type: c.type, status: c.status };
    if (c.reason) out.reason = c.reason;
    if (c.message) out.message = c.message;
    return out;
  });
  status.set("conditions", kptfile.createNode(sorted));
}

/** Config injection and its conditions / readiness gates in the Kptfile; the points' outcomes. */
export function ensureInjection(
  files: FileTree,
  kptfile: Document,
  pv: ValidVariant,
  injectables: readonly Injectable[],
): InjectionResult[] {
  const points = injectPoints(files, pv, injectables);
  if (points.length === 0) return [];
  const root = kptfile.contents as YAMLMap;
  setReadinessGates(kptfile, root, points);
  setConditions(kptfile, root, points);
  return points.map((p) => p.result);
}
