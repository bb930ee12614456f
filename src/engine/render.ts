/**
 * `renderPackage`: kpt fn render over in-memory package files.
 *
 * Steps:
 * 1. read and validate the root Kptfile (failures here store nothing: `failedBeforeRender`);
 * 2. build the package tree (subpackages, `.krmignore`; `.git` is never package content);
 * 3. hydrate depth-first (or breadth-first with `kpt.dev/bfs-rendering: "true"`), running each
 *    package's mutators then validators through the runtime;
 * 4. record kpt's usage attribution on Config Connector resources that will be stored;
 * 5. compute the root Kptfile `status` (Rendered condition, renderStatus, errorSummary);
 * 6. store per policy: everything on success; on failure `None` / `Unrendered` (default) /
 *    `PartiallyRendered` (`kpt.dev/save-on-render-failure: "true"` selects it too).
 */

import { decodeKptfileData } from "../kptfile/check.js";
import { mergeRenderedCondition } from "../kptfile/conditions.js";
import { KptfileError, nodeToPlain, readKptfileData, toPlain } from "../kptfile/read.js";
import type { Kptfile } from "../kptfile/schema.js";
import { writeKptfileWithStatus } from "../kptfile/write.js";
import { fieldValue, firstValue, pairIndex, rootMap } from "../krm/annotations-node.js";
import { KrmignoreError } from "../krm/krmignore.js";
import { buildPackageTree, type PackageNode } from "../krm/package-tree.js";
import { utf8Problem } from "../krm/utf8.js";
import { foldNodeDocumentComment } from "../krm/yaml-io.js";
import { Kind, type YNode } from "../yaml/node.js";
import { nodeToDocument } from "../yaml/to-document.js";
import { attribute } from "./attribution.js";
import type { Entry } from "./entries.js";
import { KptError } from "./errors.js";
import { validatePipeline } from "./function-config.js";
import { Hydration } from "./hydrate.js";
import { composeFiles, outputResources } from "./output.js";
import { keepUnchangedRootKptfile } from "./render-status-diff.js";
import type {
  KptfileStatus,
  KptfileStatusMode,
  PushOnFailure,
  RenderOptions,
  RenderResult,
} from "./types.js";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Annotation on the root Kptfile selecting `PartiallyRendered` on failure (kpt). */
export const SAVE_ON_RENDER_FAILURE = "kpt.dev/save-on-render-failure";
/** Annotation on the root Kptfile selecting breadth-first hydration (kpt). */
export const BFS_RENDERING = "kpt.dev/bfs-rendering";

/**
 * A failed render that stores nothing (`failedBeforeRender`): `Rendered` False with `message`, no steps;
 * `cliError` is what `kpt fn render` prints.
 */
export function failureBeforeRender(message: string, cliError: string): RenderResult {
  return {
    ok: false,
    files: undefined,
    status: { conditions: [{ type: "Rendered", status: "False", reason: "RenderFailed", message }] },
    steps: [],
    error: message,
    failedBeforeRender: true,
    cliError,
  };
}

/**
 * Renders a package like `kpt fn render`. Never throws for package problems: a bad Kptfile, a
 * failing function or an unknown function all come back as `ok: false` with kpt's error chain.
 */
export async function renderPackage(options: RenderOptions): Promise<RenderResult> {
  const text = (path: string): string | undefined => {
    const bytes = options.files.get(path);
    return bytes === undefined ? undefined : decoder.decode(bytes);
  };
  const displayDir = options.packageDir ?? options.packageName;
  const root = readRootKptfile(options, text, displayDir);
  if ("failure" in root) return root.failure;
  const rootKptfile = root.kptfile;
  const annotations = rootKptfile.metadata?.annotations ?? {};
  const policy: PushOnFailure =
    annotations[SAVE_ON_RENDER_FAILURE] === "true"
      ? "PartiallyRendered"
      : (options.pushOnFailure ?? "Unrendered");
  let tree: PackageNode;
  try {
    tree = buildPackageTree({
      paths: [...options.files.keys()],
      rootName: options.packageName,
      readText: text,
    });
  } catch (err) {
    if (!(err instanceof KrmignoreError)) throw err;
    return failureBeforeRender(`pkg.render: pkg .: ${err.message}`, `Error: ${err.message}`);
  }
  const hydration = newHydration({ options, text, displayDir, policy });
  hydration.kptfiles.set("", rootKptfile);
  let failure: KptError | undefined;
  try {
    if (annotations[BFS_RENDERING] === "true") await hydration.hydrateBfs(tree);
    else await hydration.hydrateDfs(tree);
  } catch (err) {
    if (!(err instanceof KptError)) throw err;
    failure = err;
  }
  // kpt attributes the resources it stores: after success, or after a failure whose partial
  // output is saved.
  if ((options.attribution ?? true) && (!failure || policy === "PartiallyRendered")) {
    for (const entry of hydration.working) attribute(entry.node);
  }
  return renderResult({ options, hydration, failure, policy, rootKptfile });
}

/**
 * The root Kptfile, read and its pipeline validated, or the result of a render that failed before
 * it began (missing, not UTF-8, not a Kptfile, an invalid pipeline).
 */
function readRootKptfile(
  options: RenderOptions,
  text: (path: string) => string | undefined,
  displayDir: string,
): { kptfile: Kptfile } | { failure: RenderResult } {
  const rootText = text("Kptfile");
  if (rootText === undefined) {
    const err = new KptfileError({ file: "Kptfile", detail: "no such file or directory", kind: "missing" });
    return { failure: failureBeforeRender(err.chainMessage("."), err.cliMessage(displayDir)) };
  }
  const rootInvalid = utf8Problem(options.files.get("Kptfile")!);
  if (rootInvalid) {
    const err = new KptfileError({ file: "Kptfile", detail: `MalformedYAMLError: yaml: ${rootInvalid}` });
    return { failure: failureBeforeRender(err.chainMessage("."), err.cliMessage(displayDir)) };
  }
  let kptfile: Kptfile;
  try {
    kptfile = readKptfileData("Kptfile", rootText);
  } catch (err) {
    if (!(err instanceof KptfileError)) throw err;
    return { failure: failureBeforeRender(err.chainMessage("."), err.cliMessage(displayDir)) };
  }
  // Messages that can be stored (the status) name the package by its name, never a machine path;
  // only what the CLI prints uses the directory as given.
  const invalid = validatePipeline({ kptfile, readFile: text, displayDir: options.packageName });
  if (invalid) {
    const cli = validatePipeline({ kptfile, readFile: text, displayDir }) ?? invalid;
    return { failure: failureBeforeRender(`pkg.render: pkg .: ${invalid}`, cli) };
  }
  return { kptfile };
}

function newHydration(args: {
  options: RenderOptions;
  text: (path: string) => string | undefined;
  displayDir: string;
  policy: PushOnFailure;
}): Hydration {
  const { options } = args;
  return new Hydration({
    text: args.text,
    runtime: options.runtime,
    cwd: options.cwd,
    rootName: options.packageName,
    displayDir: args.displayDir,
    onEvent: options.onEvent,
    imagePrefix: options.imagePrefix,
    // A failure stores the working set only when partially rendered; otherwise steps need no copies.
    inPlace: args.policy !== "PartiallyRendered",
    files: new Set(options.files.keys()),
    utf8Problem: (path) => {
      const bytes = options.files.get(path);
      return bytes === undefined ? undefined : utf8Problem(bytes);
    },
  });
}

/** The render's result: the status, and the files stored as the outcome and the policy say. */
function renderResult(args: {
  options: RenderOptions;
  hydration: Hydration;
  failure: KptError | undefined;
  policy: PushOnFailure;
  rootKptfile: Kptfile;
}): RenderResult {
  const { options, hydration, failure, policy, rootKptfile } = args;
  const status = buildStatus(hydration, failure, options.kptfileStatus ?? "full");
  const writeStatus = options.writeStatus ?? true;
  const common = {
    status,
    steps: hydration.steps,
    executedCount: hydration.executed,
    packageCount: hydration.packages,
  };
  const withStatus = writeStatus ? { status, fallback: rootKptfile } : undefined;
  if (failure) {
    const base = { ...common, ok: false, error: failure.message, cliError: cliErrorOf(failure) };
    if (policy === "None") return { ...base, files: undefined };
    if (policy === "Unrendered") {
      const files = new Map(options.files);
      if (writeStatus)
        files.set(
          "Kptfile",
          encoder.encode(writeKptfileWithStatus(rootKptfile, keepConditions(status, rootKptfile))),
        );
      keepUnchangedRootKptfile(options.files, files);
      return { ...base, files };
    }
    const { files } = store(hydration, options.files, withStatus);
    if (writeStatus) keepUnchangedRootKptfile(options.files, files);
    return { ...base, files };
  }
  const resources = options.withResources ? outputResources(hydration.working) : undefined;
  const { files, resourcePaths } = store(hydration, options.files, withStatus);
  if (writeStatus) keepUnchangedRootKptfile(options.files, files);
  return { ...common, ok: true, files, resourcePaths, resources };
}

function cliErrorOf(failure: KptError): string | undefined {
  const cause = failure.rootCause();
  return cause === "already handled error" ? undefined : cause;
}

function buildStatus(h: Hydration, failure: KptError | undefined, mode: KptfileStatusMode): KptfileStatus {
  const status: KptfileStatus = {
    conditions: [
      failure
        ? { type: "Rendered", status: "False", reason: "RenderFailed", message: failure.message }
        : { type: "Rendered", status: "True", reason: "RenderSuccess" },
    ],
  };
  if (mode === "full" && (h.mutationSteps.length > 0 || h.validationSteps.length > 0 || h.errorSummary)) {
    status.renderStatus = {};
    if (h.mutationSteps.length > 0) status.renderStatus.mutationSteps = h.mutationSteps;
    if (h.validationSteps.length > 0) status.renderStatus.validationSteps = h.validationSteps;
    if (h.errorSummary) status.renderStatus.errorSummary = h.errorSummary;
  }
  return status;
}

/** Puts the Kptfile's other conditions before the new `Rendered` one (kpt keeps them). */
function keepConditions(status: KptfileStatus, kptfile: Kptfile): KptfileStatus {
  const rendered = status.conditions.find((c) => c.type === "Rendered");
  if (rendered) status.conditions = mergeRenderedCondition(kptfile.status, rendered);
  return status;
}

function isRootKptfile(entry: Entry): boolean {
  return (
    entry.pkg === "" && entry.originFile?.path === "Kptfile" && fieldValue(entry.node, ["kind"]) === "Kptfile"
  );
}

/**
 * `read()` with the pair `status.renderStatus` taken out of the Kptfile document node `doc` (put back
 * after): what a render writes anew need not be converted (a status can hold megabytes of results).
 */
function withoutRenderStatus<T>(doc: YNode, read: () => T): T {
  const status = firstValue(rootMap(doc), "status");
  const at = status?.kind === Kind.Mapping ? pairIndex(status, "renderStatus") : -1;
  if (!status || at < 0) return read();
  const pair = status.content.splice(at, 2);
  try {
    return read();
  } finally {
    status.content.splice(at, 0, ...pair);
  }
}

/** The annotations a render adds to what it reads, taken off the root Kptfile it stores. */
const ID_ANNOTATIONS = [
  "config.kubernetes.io/index",
  "config.kubernetes.io/path",
  "internal.config.kubernetes.io/index",
  "internal.config.kubernetes.io/path",
  "internal.config.kubernetes.io/seqindent",
  "config.k8s.io/id",
];

/**
 * The root Kptfile entry's data as stored: its node as plain data ({@link toPlain} of its `yaml`
 * Document), each of {@link ID_ANNOTATIONS} deleted, then `metadata.annotations` when the read
 * created it and it is left empty. Read from the node itself when it is plain data
 * ({@link nodeToPlain}: no alias, tag or non-string key) with a mapping, or nothing, for its metadata
 * and annotations; otherwise through the `yaml` Document (the same result, without loading the
 * package for a plain Kptfile).
 */
function storedKptfilePlain(root: Entry): unknown {
  const top = rootMap(root.node);
  const meta = firstValue(top, "metadata");
  const annotations = meta?.kind === Kind.Mapping ? firstValue(meta, "annotations") : undefined;
  if (
    top &&
    (meta === undefined || meta.kind === Kind.Mapping) &&
    (annotations === undefined || annotations.kind === Kind.Mapping)
  ) {
    const removed: [YNode, number, YNode[]][] = [];
    try {
      if (meta && annotations) {
        for (const key of ID_ANNOTATIONS) {
          const at = pairIndex(annotations, key);
          if (at >= 0) removed.push([annotations, at, annotations.content.splice(at, 2)]);
        }
        if (root.createdAnnotations && annotations.content.length === 0) {
          const at = pairIndex(meta, "annotations");
          removed.push([meta, at, meta.content.splice(at, 2)]);
        }
      }
      const plain = nodeToPlain(top);
      if (plain) return plain.value;
    } finally {
      for (let i = removed.length - 1; i >= 0; i--) {
        const [map, at, pair] = removed[i];
        map.content.splice(at, 0, ...pair);
      }
    }
  }
  const clone = nodeToDocument(root.node);
  if (clone.getIn(["metadata", "annotations"])) {
    for (const key of ID_ANNOTATIONS) clone.deleteIn(["metadata", "annotations", key]);
    const left = clone.getIn(["metadata", "annotations"]) as { items?: unknown[] } | undefined;
    if (root.createdAnnotations && left?.items?.length === 0) clone.deleteIn(["metadata", "annotations"]);
  }
  return toPlain(clone.contents);
}

/** Composes the stored files from the working set, the root Kptfile re-serialized with the status. */
function store(
  h: Hydration,
  original: ReadonlyMap<string, Uint8Array>,
  withStatus: { status: KptfileStatus; fallback: Kptfile } | undefined,
): { files: Map<string, Uint8Array>; resourcePaths: string[] } {
  if (!withStatus) {
    for (const entry of h.working) foldNodeDocumentComment(entry.node);
    return composeFiles({ files: original, entries: h.working, parsed: h.parsed, inputFiles: h.inputFiles });
  }
  const root = h.working.find(isRootKptfile);
  const rest = h.working.filter((e) => e !== root);
  const inputFiles = new Set(h.inputFiles);
  inputFiles.delete("Kptfile");
  const composed = composeFiles({ files: original, entries: rest, parsed: h.parsed, inputFiles });
  let kptfile = withStatus.fallback;
  if (root) {
    // The root Kptfile is read back once (its status is written by the Kptfile writer), without the
    // last render's report (the new status replaces it) and the annotations the render added.
    const plain = withoutRenderStatus(root.node, () => storedKptfilePlain(root));
    const parsed = decodeKptfileData(plain);
    if (parsed.success) kptfile = parsed.data;
  }
  const status = keepConditions(withStatus.status, kptfile);
  composed.files.set("Kptfile", encoder.encode(writeKptfileWithStatus(kptfile, status)));
  if (!composed.resourcePaths.includes("Kptfile")) composed.resourcePaths.push("Kptfile");
  return composed;
}
