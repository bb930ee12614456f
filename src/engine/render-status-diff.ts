/**
 * Whether a re-render changed only the record of the render run, and kpt's idempotence rule built on
 * it: rendering a rendered package changes nothing. Functions report differently on a first render
 * and on a re-render of its output (set-namespace: "updated ..., 3 value(s) changed" vs "already ...
 * no value changed"), so the steps' `results` / `errorResults` / `stderr` under
 * `status.renderStatus` are not part of "what rendering produces". The merge gate
 * (lifecycle/merge-gate.ts) and the engine (render.ts) share this one comparison.
 */
import { plainValue } from "../yaml/compare.js";
import { readYamlStream } from "../yaml/index.js";
import { sameBytes } from "./bytes.js";

/** Fields of a step record that are the function's report of one run, not the step's identity. */
const RUN_REPORT_FIELDS = ["results", "errorResults", "stderr"] as const;

/**
 * The Kptfile's data without the steps' run report, as JSON text to compare; undefined when the text
 * is not one YAML document. Read with our YAML layer: a status can hold tens of thousands of results
 * (megabytes), which the `yaml` package reads at a few MB/s.
 */
function withoutRenderResults(text: string): string | undefined {
  try {
    const docs = readYamlStream(text);
    if (docs.length !== 1) return undefined;
    const doc = plainValue(docs[0].node) as { status?: { renderStatus?: Record<string, unknown> } } | null;
    const renderStatus = doc?.status?.renderStatus;
    if (renderStatus && typeof renderStatus === "object") {
      for (const key of ["mutationSteps", "validationSteps"]) {
        const steps = renderStatus[key];
        if (!Array.isArray(steps)) continue;
        for (const step of steps) {
          if (step && typeof step === "object")
            for (const field of RUN_REPORT_FIELDS) delete (step as Record<string, unknown>)[field];
        }
      }
    }
    return JSON.stringify(doc);
  } catch {
    return undefined;
  }
}

/**
 * True when a Kptfile change is only the record of the render run: the `results`, `errorResults` and
 * `stderr` of the steps under `status.renderStatus`. Functions report differently on a first render and
 * on a re-render of its output ("1 value(s) changed" vs "no value changed"), so that record is not part
 * of "what rendering produces". Conditions (Rendered and any readiness condition), the list of steps
 * (image/exec, exit code, execution error), `errorSummary` and everything else still count.
 */
export function onlyRenderStatusDiffers(
  before: Uint8Array | undefined,
  after: Uint8Array | undefined,
): boolean {
  if (!before || !after) return false;
  const decode = (b: Uint8Array) => withoutRenderResults(new TextDecoder().decode(b));
  const a = decode(before);
  return a !== undefined && a === decode(after);
}

const RENDER_STATUS_KEY = "\n  renderStatus:";

/** The Kptfile text before `status.renderStatus` (kpt writes it last), or the whole text. */
function beforeRenderStatus(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes);
  const at = text.indexOf(RENDER_STATUS_KEY);
  return at < 0 ? text : text.slice(0, at);
}

/**
 * kpt's idempotence for the stored package: when a render changed no file but the root `Kptfile`,
 * and there only the steps' run report under `status.renderStatus` ({@link onlyRenderStatusDiffers};
 * everything before `renderStatus` byte-identical, so the `Rendered` condition too), the root
 * Kptfile keeps its bytes: its status still describes how this content was produced. Mutates
 * `rendered` (root-relative path -> bytes) in place; `input` is the package as given.
 */
export function keepUnchangedRootKptfile(
  input: ReadonlyMap<string, Uint8Array>,
  rendered: Map<string, Uint8Array>,
): void {
  const before = input.get("Kptfile");
  const after = rendered.get("Kptfile");
  if (!before || !after || sameBytes(before, after)) return;
  for (const path of new Set([...input.keys(), ...rendered.keys()])) {
    if (path !== "Kptfile" && !sameBytes(input.get(path), rendered.get(path))) return;
  }
  // The text before `renderStatus` is compared first: a cheap test that most changes fail.
  if (beforeRenderStatus(before) !== beforeRenderStatus(after)) return;
  if (!onlyRenderStatusDiffers(before, after)) return;
  rendered.set("Kptfile", before);
}
