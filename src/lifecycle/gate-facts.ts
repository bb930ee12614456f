/**
 * What the merge gate needs from a package's Kptfiles, worked out where the package was rendered (a
 * render worker, within its time and memory budgets) rather than on the server's main thread: a Kptfile
 * of thousands of steps or results costs seconds of YAML parsing. Main-thread renders (the CLI, tests)
 * compute the same facts on the spot.
 */
import path from "node:path/posix";
import { sameBytes } from "../engine/bytes.js";
import { onlyRenderStatusDiffers } from "../engine/render-status-diff.js";
import type { PackageFiles, RenderResult } from "../engine/types.js";
import type { AnnotatedRenderResult, PackageReport } from "../report/annotations.js";
import { type UnmetGate, unmetReadinessGates } from "./readiness.js";

/** The merge gate's facts about one rendered package (paths relative to the package). */
export interface GateFacts {
  /** Kptfiles the render changed only in the record of the render run ({@link onlyRenderStatusDiffers}). */
  runReportOnly: string[];
  /** Readiness gates of the package's Kptfile that are not met. */
  unmetGates: UnmetGate[];
}

/** A render result as the render pool returns it: annotations and gate facts already worked out. */
export type JudgedRenderResult = AnnotatedRenderResult & { gate?: GateFacts };

/** Works out {@link GateFacts} of `result`, rendered from `inputFiles`. */
export function gateFacts(result: RenderResult, inputFiles: PackageFiles): GateFacts {
  const runReportOnly: string[] = [];
  for (const [rel, bytes] of result.files ?? []) {
    if (path.basename(rel) !== "Kptfile") continue;
    const before = inputFiles.get(rel);
    if (!sameBytes(before, bytes) && onlyRenderStatusDiffers(before, bytes)) runReportOnly.push(rel);
  }
  const kptfile = result.files?.get("Kptfile") ?? inputFiles.get("Kptfile");
  const unmetGates = kptfile ? unmetReadinessGates(new TextDecoder().decode(kptfile), result.ok) : [];
  return { runReportOnly, unmetGates };
}

/** The package's facts: those its render worker sent, else worked out now. */
export function factsOf(pkg: PackageReport): GateFacts {
  const result = pkg.result as JudgedRenderResult;
  result.gate ??= gateFacts(pkg.result, pkg.inputFiles);
  return result.gate;
}
