/**
 * Running one pipeline step (kpt's `FunctionRunner` + kyaml's `FunctionFilter`): select the input,
 * check it is KRM, hand it to the runtime with `config.k8s.io/id` set (the resources themselves, or
 * clones when the input must survive the step), copy comments back onto the output and restore the
 * input's field order (kyaml's `CopyComments` and `SyncOrder`, from each input resource's shape taken
 * before the run), map output resources back to their package and origin, and record the step status.
 */

import type { Document } from "yaml";
import { INTERNAL_PATH, LEGACY_PATH, PACKAGE_PATH, RESOURCE_ID } from "../krm/annotations.js";
import {
  annotationsNode,
  deleteNodeKeys,
  getNodeAnnotation,
  readNodeLocation,
  setNodeAnnotations,
  stripNodePipelineAnnotations,
  viaDocument,
} from "../krm/annotations-node.js";
import { cloneDocument } from "../krm/clone.js";
import { type NodeShape, restoreFromNode, restoreNodeShape, takeNodeShape } from "../krm/node-restore.js";
import type { FunctionResult, NodeResourceList } from "../krm/resource-list.js";
import { foldNodeReturnedResourceComment } from "../krm/yaml-io.js";
import { cloneNode, Kind, YNode } from "../yaml/node.js";
import { type Entry, idFreeAnnotations, nonKrmProblem, takeFacts } from "./entries.js";
import { ALREADY_HANDLED } from "./errors.js";
import { type PipelineStep, stepOrigin } from "./function-config.js";
import type { FunctionRef, FunctionRuntime, NodeRunOutcome, NodeRunRequest } from "./function-runtime.js";
import { normalizeImage } from "./image.js";
import { documentRequest, nodeOutcome } from "./node-adapter.js";
import { defaultPath } from "./output.js";
import { packageOfValue, packagePathValue } from "./package-path.js";
import { isSelected } from "./selectors.js";
import type { StepStatus } from "./types.js";

/** What running one step produced. */
export interface StepOutcome {
  status: StepStatus;
  /** The working entries after the step (mutators) or unchanged (validators, failures). */
  entries: Entry[];
  /** kpt's cause for the failure (`already handled error` or the execution error), when the step failed. */
  failure: string | undefined;
  /** All results the function reported (for results files and reports). */
  results: FunctionResult[];
  resourceCount: number;
  durationMs: number;
}

/** Everything `runStep` needs. */
export interface RunStepOptions {
  step: PipelineStep;
  pkg: string;
  entries: Entry[];
  functionConfig: Document | undefined;
  runtime: FunctionRuntime;
  cwd?: string;
  /**
   * kpt's render: every input resource carries its package in `internal.config.kubernetes.io/package-path`
   * (`.` for the root, else its path from the root) and an output resource goes to the package its
   * annotation names (a new one without it to this step's package). kpt's `fn eval` sets none.
   */
  packagePaths?: boolean;
  /**
   * Let a mutator edit the input resources themselves instead of clones (no copy per resource). After
   * a failed step they are then left as the function left them: only for callers that do not use the
   * input of a failed step (the engine stores nothing of a failed render unless partially rendered).
   */
  inPlace?: boolean;
}

function baseStatus(step: PipelineStep): StepStatus {
  return step.fn.image ? { image: stepLabel(step), exitCode: 0 } : { exec: step.fn.exec, exitCode: 0 };
}

/** The step's name for messages and its status: the image as kpt records it, or the exec command. */
export function stepLabel(step: PipelineStep): string {
  if (!step.fn.image) return step.fn.exec ?? "";
  return step.label ?? normalizeImage(step.fn.image);
}

/** The function reference a runtime is asked to run for a step. */
function fnRef(step: PipelineStep): FunctionRef {
  return step.fn.image
    ? { image: step.fn.image, ...(step.fn.tag ? { tag: step.fn.tag } : {}) }
    : { exec: step.fn.exec };
}

function noRuntime(step: PipelineStep): NodeRunOutcome {
  const what = step.fn.image
    ? `image ${JSON.stringify(step.fn.image)}`
    : `exec ${JSON.stringify(step.fn.exec)}`;
  return {
    exitCode: 1,
    stderr: "",
    executionError: `no function runtime can run ${what}: use a builtin catalog function, or an exec function with --allow-exec`,
  };
}

/**
 * Runs a node request on a runtime: `runNodes` when it has one, else `run` on the items converted to
 * Documents once, its output converted back. `undefined`: not the runtime's function.
 */
export async function runNodesOn(
  runtime: FunctionRuntime,
  request: NodeRunRequest,
): Promise<NodeRunOutcome | undefined> {
  if (runtime.runNodes) return runtime.runNodes(request);
  const outcome = await runtime.run(documentRequest(request));
  return outcome && nodeOutcome(outcome);
}

/** Calls the runtime; a throwing runtime or a malformed output becomes an execution error. */
async function invoke(
  options: RunStepOptions,
  items: YNode[],
  functionConfig: Document | undefined,
): Promise<NodeRunOutcome> {
  const { step } = options;
  let outcome: NodeRunOutcome;
  try {
    const input: NodeResourceList = { items, functionConfig, results: [] };
    outcome =
      (await runNodesOn(options.runtime, {
        fn: fnRef(step),
        input,
        cwd: options.cwd,
        ...(options.packagePaths ? { origin: stepOrigin(options.pkg, step) } : {}),
      })) ?? noRuntime(step);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      exitCode: 1,
      stderr: "",
      executionError: `function ${JSON.stringify(stepLabel(step))} failed: ${message}`,
    };
  }
  const output: unknown[] | undefined = outcome.output?.items;
  if (
    outcome.output &&
    (!Array.isArray(output) || !output.every((item) => item instanceof YNode && item.kind === Kind.Document))
  ) {
    return {
      exitCode: 1,
      stderr: outcome.stderr,
      executionError: `function ${JSON.stringify(stepLabel(step))} returned an invalid ResourceList: items must be KRM resources`,
    };
  }
  return outcome;
}

/** Runs one step on the entries. Never throws for function failures (they are in the outcome). */
export async function runStep(options: RunStepOptions): Promise<StepOutcome> {
  const { step, entries } = options;
  const filtering = (step.fn.selectors?.length ?? 0) > 0 || (step.fn.exclude?.length ?? 0) > 0;
  const selected = filtering ? entries.filter((e) => isSelected(e.node, step.fn)) : [...entries];
  const status = baseStatus(step);
  const started = Date.now();
  const problem = nonKrmProblem(selected);
  if (problem) {
    const message = `input resource list must contain only KRM resources: ${problem}`;
    return {
      status: { ...status, executionError: message, exitCode: 1 },
      entries,
      failure: message,
      results: [],
      resourceCount: selected.length,
      durationMs: 0,
    };
  }
  // The functionConfig is copied first: it may be one of the resources, which get their ids next.
  const functionConfig = options.functionConfig && cloneDocument(options.functionConfig);
  const inPlace = options.inPlace === true && step.kind === "mutator";
  // A runtime that keeps its input (writes it to a process) needs no shapes taken before the run.
  const keeps = options.runtime.keepsInput?.(fnRef(step)) === true;
  // A node-native builtin edits the items in place as kyaml's filters do: nothing to take or restore.
  const native = options.runtime.editsNodesInPlace?.(fnRef(step)) === true;
  const shapes = inPlace && !keeps && !native ? selected.map((e) => takeNodeShape(e.node)) : undefined;
  const { items: passed, offTree } = inputItems(selected, inPlace, options.packagePaths, native);
  const outcome = await invoke(options, passed, functionConfig);
  const durationMs = Date.now() - started;
  const results = recordOutcome(status, outcome);
  const failed = status.exitCode !== 0 || outcome.executionError !== undefined || !outcome.output;
  const base = { status, results, resourceCount: selected.length, durationMs };
  if (failed) {
    if (status.exitCode === 0) status.exitCode = 1;
    return { ...base, entries, failure: outcome.executionError ?? ALREADY_HANDLED };
  }
  if (step.kind === "validator") return { ...base, entries, failure: undefined };
  const outputs = mapOutputs(
    outcome.output?.items ?? [],
    selected,
    options.pkg,
    options.packagePaths === true,
    { shapes, keeps, passed: native ? passed : undefined, offTree },
  );
  return {
    ...base,
    entries: filtering ? mergeWithInput(entries, selected, outputs) : outputs,
    failure: undefined,
  };
}

/**
 * The function's input items: the selected resources (or clones) with `config.k8s.io/id` (and the
 * package path) set. For a node-native builtin (`native`) an item whose annotations map would get
 * the two keys appended and lose them again unchanged (the map is there, holds neither key, and its
 * last key no foot comment the append would move) gets none: its id is its place among the items,
 * kept off the tree in `offTree` (the annotations map it had, so an output whose map a function
 * replaced or removed lost its id as it would on the tree).
 */
function inputItems(
  selected: Entry[],
  inPlace: boolean,
  packagePaths: boolean | undefined,
  native: boolean,
): { items: YNode[]; offTree: Array<YNode | undefined> | undefined } {
  const offTree: Array<YNode | undefined> | undefined = native ? [] : undefined;
  const items = selected.map((entry, i) => {
    const doc = inPlace ? entry.node : cloneNode(entry.node);
    if (offTree) {
      // An entry's node given itself was read as it is now.
      const facts = inPlace && packagePaths ? entry.facts : undefined;
      const ann = facts ? facts.idFree : idFreeAnnotations(doc, packagePaths === true);
      offTree.push(ann);
      if (ann) return doc;
    }
    setNodeAnnotations(
      doc,
      packagePaths
        ? [
            [RESOURCE_ID, String(i)],
            [PACKAGE_PATH, packagePathValue(entry.pkg)],
          ]
        : [[RESOURCE_ID, String(i)]],
    );
    return doc;
  });
  return { items, offTree };
}

let lastPackage: { pkg: string; named: string | undefined } | undefined;

/** The package a resource's own package-path value names (the last one asked kept). */
function packageOfOwnPath(pkg: string): string | undefined {
  if (lastPackage?.pkg !== pkg) lastPackage = { pkg, named: packageOfValue(packagePathValue(pkg)) };
  return lastPackage.named;
}

/**
 * The place among the items given of an output document whose id was kept off the tree (see
 * {@link inputItems}), or -1 when its id is on the tree (or it is no item given).
 */
function offTreeIndex(
  doc: YNode,
  position: number,
  input: { passed: YNode[] | undefined; offTree: Array<YNode | undefined> | undefined },
  byNode: () => Map<YNode, number>,
): number {
  const { passed, offTree } = input;
  if (!passed || !offTree) return -1;
  const at = passed[position] === doc ? position : byNode().get(doc);
  return at !== undefined && offTree[at] !== undefined ? at : -1;
}

/** Records the runtime's outcome in the step status (kpt's fields); returns the function's results. */
function recordOutcome(status: StepStatus, outcome: NodeRunOutcome): FunctionResult[] {
  const results = outcome.output?.results ?? [];
  // kpt lists every result under `results` and repeats the error-severity ones under `errorResults`.
  const errorResults = results.filter((r) => r.severity === "error");
  if (outcome.executionError) status.executionError = outcome.executionError;
  if (outcome.stderr) status.stderr = outcome.stderr;
  status.exitCode = outcome.exitCode === 0 && outcome.executionError ? 1 : outcome.exitCode;
  if (results.length > 0) status.results = results;
  if (errorResults.length > 0) status.errorResults = errorResults;
  return results;
}

/**
 * Maps a function's output documents back to entries via `config.k8s.io/id`. `shapes` are the
 * inputs' shapes taken before the run (when the function edited the inputs themselves); with `keeps`
 * (the runtime keeps its input), an output that is its input document is that document unchanged:
 * there are no comments to copy back and no field order to restore; with `passed` (the items given to
 * a node-native builtin), an output that is the item it was given keeps what the builtin left.
 */
function mapOutputs(
  items: YNode[],
  selected: Entry[],
  pkg: string,
  packagePaths: boolean,
  input: {
    shapes: NodeShape[] | undefined;
    keeps: boolean;
    passed: YNode[] | undefined;
    offTree: Array<YNode | undefined> | undefined;
  },
): Array<Entry & { sourceIndex?: number }> {
  let positions: Map<YNode, number> | undefined;
  const byNode = () => (positions ??= new Map(input.passed?.map((n, i) => [n, i])));
  return items.map((doc, position) => {
    const entry: Entry & { sourceIndex?: number } = outputEntry(doc, position);
    entry.facts = takeFacts(entry);
    return entry;
  });

  function outputEntry(doc: YNode, position: number): Entry & { sourceIndex?: number } {
    let sourceIndex: number | undefined;
    let named: string | undefined;
    const at = offTreeIndex(doc, position, input, byNode);
    if (at >= 0) {
      // Its id holds while it has the annotations map it was given; a map left empty goes.
      const ann = annotationsNode(doc);
      if (ann === input.offTree![at]) {
        sourceIndex = at;
        named = packagePaths ? packageOfOwnPath(selected[at].pkg) : undefined;
      }
      if (ann && ann.content.length === 0) stripNodePipelineAnnotations(doc, true);
    } else {
      const id = getNodeAnnotation(doc, RESOURCE_ID);
      sourceIndex = id === undefined ? undefined : Number.parseInt(id, 10);
      named = packagePaths ? packageOfValue(getNodeAnnotation(doc, PACKAGE_PATH)) : undefined;
      dropEngineIds(doc, packagePaths);
    }
    const source = sourceIndex === undefined ? undefined : selected[sourceIndex];
    if (!source) {
      // kyaml's FunctionFilter names a generated resource's file right away (`DefaultPathAnnotation`):
      // `[<namespace>/]<kind>_<name>.yaml` as the resource is now, whatever later steps change.
      if (readNodeLocation(doc).path === undefined) {
        const file = defaultPath(doc);
        setNodeAnnotations(doc, [
          [INTERNAL_PATH, file],
          [LEGACY_PATH, file],
        ]);
      }
      foldNodeReturnedResourceComment(doc);
      return {
        node: doc,
        pkg: named ?? pkg,
        origin: undefined,
        originFile: undefined,
        createdAnnotations: true,
        facts: undefined,
      };
    }
    const untouched = input.passed !== undefined && doc === input.passed[sourceIndex!];
    if (!untouched && (!input.keeps || doc !== source.node)) {
      if (input.shapes) restoreNodeShape(input.shapes[sourceIndex!], doc);
      else restoreFromNode(source.node, doc);
    }
    // A resource that went through a function comes back as a ResourceList item: the comments its
    // document started with are now the first key's, whatever the runtime (kpt's function round trip).
    foldNodeReturnedResourceComment(doc);
    return {
      node: doc,
      pkg: named ?? source.pkg,
      origin: source.origin,
      originFile: source.originFile,
      createdAnnotations: source.createdAnnotations,
      facts: undefined,
      sourceIndex,
    };
  }
}

/**
 * Removes the engine's id (and package-path) annotations from an output resource; the map that only
 * carried them goes with them (kyaml's writer clears empty annotations).
 */
function dropEngineIds(doc: YNode, packagePaths: boolean): void {
  const ann = annotationsNode(doc);
  if (!ann) return;
  const keys = packagePaths ? [RESOURCE_ID, PACKAGE_PATH] : [RESOURCE_ID];
  if (!deleteNodeKeys(ann, keys)) {
    viaDocument(doc, (d) => {
      const map = d.getIn(["metadata", "annotations"], true) as { delete(key: string): boolean };
      for (const key of keys) map.delete(key);
    });
  }
  const after = annotationsNode(doc);
  if (after && after.content.length === 0) stripNodePipelineAnnotations(doc, true);
}

/** kpt's `MergeWithInput`: selected inputs are replaced by their outputs in place; new outputs go last. */
function mergeWithInput(
  entries: Entry[],
  selected: Entry[],
  outputs: Array<Entry & { sourceIndex?: number }>,
): Entry[] {
  const bySource = new Map<Entry, Entry>();
  const fresh: Entry[] = [];
  for (const out of outputs) {
    const source = out.sourceIndex === undefined ? undefined : selected[out.sourceIndex];
    const { sourceIndex: _ignored, ...entry } = out;
    if (source) bySource.set(source, entry);
    else fresh.push(entry);
  }
  const selectedSet = new Set(selected);
  const merged: Entry[] = [];
  for (const entry of entries) {
    if (!selectedSet.has(entry)) merged.push(entry);
    else {
      const replaced = bySource.get(entry);
      if (replaced) merged.push(replaced);
    }
  }
  return [...merged, ...fresh];
}
