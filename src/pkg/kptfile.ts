/**
 * The Kptfile as `kpt pkg get` / `kpt pkg update` read and write it (kpt's `kptfileutil`): decoded
 * strictly, re-serialized from kpt's struct (field order, empty fields omitted, comments dropped),
 * `upstream` / `upstreamLock` set from the fetched revision, and the 3-way merge of a local Kptfile
 * with its original and updated upstream versions (pipeline functions matched by name, or by image
 * when no function is named).
 */
import { Document, isMap, isScalar, isSeq, type YAMLMap } from "yaml";
import type { KptfileStatus } from "../engine/types.js";
import { goMarshal } from "../kptfile/go-marshal.js";
import { readKptfile } from "../kptfile/read.js";
import type { KptFunction, Kptfile } from "../kptfile/schema.js";
import { kptfileObject, statusObject } from "../kptfile/write.js";
import type { YNode } from "./merge3/nodes.js";
import { NO_SCHEMAS } from "./merge3/schema.js";
import { merge3 } from "./merge3/walk.js";

/** A Kptfile as read: the typed fields and its `status` as written (numbers and booleans kept). */
export interface KptfileData {
  kptfile: Kptfile;
  status: unknown;
}

/** Decodes a Kptfile (kpt's strict decoding). Throws `KptfileError` naming `file`. */
export function parseKptfile(file: string, content: Buffer | string): KptfileData {
  const text = typeof content === "string" ? content : content.toString("utf8");
  const { doc, kptfile } = readKptfile(file, text);
  const js = doc.toJS() as { status?: unknown } | null;
  return { kptfile, status: js && typeof js === "object" ? js.status : undefined };
}

/** kpt's `DefaultKptfile(name)`: the minimal Kptfile. */
export function defaultKptfile(name: string): KptfileData {
  return { kptfile: { apiVersion: "kpt.dev/v1", kind: "Kptfile", metadata: { name } }, status: undefined };
}

function orderedStatus(status: unknown): Record<string, unknown> | undefined {
  if (!status || typeof status !== "object") return undefined;
  const s = status as Partial<KptfileStatus>;
  const ordered = statusObject({
    conditions: Array.isArray(s.conditions) ? s.conditions : [],
    ...s,
  } as KptfileStatus);
  return Object.keys(ordered).length > 0 ? ordered : undefined;
}

/** kpt's `kptfileutil.WriteFile`: the Kptfile text kpt writes. */
export function marshalKptfile(data: KptfileData): string {
  const k = data.kptfile;
  const obj = kptfileObject(
    {
      ...k,
      upstream: k.upstream && {
        type: k.upstream.type,
        git: k.upstream.git && {
          repo: k.upstream.git.repo,
          directory: k.upstream.git.directory,
          ref: k.upstream.git.ref,
        },
        updateStrategy: k.upstream.updateStrategy,
      },
    },
    undefined,
  );
  const status = orderedStatus(data.status);
  if (status) obj.status = status;
  return goMarshal(obj);
}

/** The `upstreamLock` kpt writes for a fetched revision (`UpdateUpstreamLockFromGit`). */
export function lockFor(spec: {
  repo: string;
  directory: string;
  ref: string;
  commit: string;
}): Kptfile["upstreamLock"] {
  return {
    type: "git",
    git: { repo: spec.repo, directory: spec.directory, ref: spec.ref, commit: spec.commit },
  };
}

const SYNTHETIC = "_kpt-merge_";

function fnKey(fn: KptFunction): string {
  return fn.exec ? fn.exec : (fn.image ?? "").split(":")[0];
}

/** kpt's `shouldAddFnKey`: no function is named and no two share an image (or exec). */
function shouldAddFnKey(kfs: Kptfile[]): boolean {
  for (const kf of kfs) {
    for (const list of [kf.pipeline?.mutators, kf.pipeline?.validators]) {
      const keys = new Set<string>();
      for (const fn of list ?? []) {
        if (fn.name) return false;
        const key = fnKey(fn);
        if (keys.has(key)) return false;
        keys.add(key);
      }
    }
  }
  return true;
}

function withSyntheticNames(kf: Kptfile): Kptfile {
  if (!kf.pipeline) return kf;
  const name = (fn: KptFunction) => (fn.name ? fn : { ...fn, name: `${SYNTHETIC}${fnKey(fn)}` });
  return {
    ...kf,
    pipeline: {
      ...kf.pipeline,
      mutators: kf.pipeline.mutators?.map(name),
      validators: kf.pipeline.validators?.map(name),
    },
  };
}

function withoutSyntheticNames(fns: KptFunction[] | undefined): KptFunction[] | undefined {
  return fns?.map((fn) => {
    if (!fn.name?.startsWith(SYNTHETIC)) return fn;
    const { name: _drop, ...rest } = fn;
    return rest;
  });
}

function asDocument(data: KptfileData): Document {
  const obj = kptfileObject(data.kptfile, undefined);
  const status = orderedStatus(data.status);
  if (status) obj.status = status;
  return new Document(obj);
}

/** Plain data of a merged node, every scalar as yaml.v3 would decode it into kpt's string fields. */
function plain(node: unknown): unknown {
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of (node as YAMLMap).items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const value = plain(pair.value);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  if (isSeq(node)) return node.items.map(plain);
  if (isScalar(node)) return node.value === null ? undefined : node.value;
  return undefined;
}

function strings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strings);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strings(v)]));
  }
  return value === undefined ? undefined : String(value);
}

/**
 * kpt's `kptfileutil.UpdateKptfile` merge: `local` takes the 3-way merge of its annotations,
 * labels, info, pipeline, inventory and status with `updated` and `origin`; with `updateUpstream`
 * it also takes `updated`'s upstream and upstreamLock. Missing Kptfiles are empty ones.
 */
export function mergeKptfile(
  local: KptfileData | undefined,
  updated: KptfileData | undefined,
  origin: KptfileData | undefined,
  updateUpstream: boolean,
): KptfileData {
  const empty: KptfileData = { kptfile: { apiVersion: "", kind: "" }, status: undefined };
  const l = local ?? empty;
  const u = updated ?? empty;
  const o = origin ?? empty;
  const synthetic = shouldAddFnKey([l.kptfile, u.kptfile, o.kptfile]);
  const prep = (d: KptfileData): KptfileData =>
    synthetic ? { ...d, kptfile: withSyntheticNames(d.kptfile) } : d;
  const docs = [prep(l), prep(o), prep(u)].map(asDocument);
  const merged = merge3(docs.map((d) => d.contents as YNode) as [YNode, YNode, YNode], {
    schemas: NO_SCHEMAS,
    inferAssociativeLists: true,
  });
  const m = (plain(merged) ?? {}) as {
    metadata?: { annotations?: Record<string, string>; labels?: Record<string, string> };
    info?: Kptfile["info"];
    pipeline?: Kptfile["pipeline"];
    inventory?: Kptfile["inventory"];
    status?: unknown;
  };
  const out: Kptfile = { ...l.kptfile };
  const meta = { ...(out.metadata ?? {}) };
  meta.annotations = m.metadata?.annotations
    ? (strings(m.metadata.annotations) as Record<string, string>)
    : undefined;
  meta.labels = m.metadata?.labels ? (strings(m.metadata.labels) as Record<string, string>) : undefined;
  out.metadata = meta;
  out.info = m.info ? (strings(m.info) as Kptfile["info"]) : undefined;
  const pipeline = m.pipeline ? (strings(m.pipeline) as Kptfile["pipeline"]) : undefined;
  out.pipeline = pipeline && {
    ...pipeline,
    mutators: synthetic ? withoutSyntheticNames(pipeline.mutators) : pipeline.mutators,
    validators: synthetic ? withoutSyntheticNames(pipeline.validators) : pipeline.validators,
  };
  out.inventory = m.inventory ? (strings(m.inventory) as Kptfile["inventory"]) : undefined;
  if (updateUpstream) {
    if (u.kptfile.upstream) out.upstream = u.kptfile.upstream;
    if (u.kptfile.upstreamLock) out.upstreamLock = u.kptfile.upstreamLock;
  }
  return { kptfile: out, status: m.status };
}
