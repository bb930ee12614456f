/**
 * Porch's config injection points: the resources annotated `kpt.dev/config-injection`, each with its
 * condition `config.injection.<Kind>.<name>`, and the injection of the resource chosen by the
 * variant's `injectors` (a ConfigMap's `data`, another resource's `spec`).
 */
import path from "node:path/posix";
import { type Document, isMap, parseAllDocuments } from "yaml";
import { type FileTree, isYamlFile, KPTFILE } from "../../../pkg/files.js";
import type { InjectionSelector } from "../package-variant.js";
import {
  CONFIG_INJECTION,
  INJECTED_RESOURCE,
  type Injectable,
  type InjectionResult,
  MutationError,
  str,
} from "./model.js";

function groupVersion(apiVersion: string): [string, string] {
  const i = apiVersion.indexOf("/");
  return i < 0 ? ["", apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
}

/** An injection point: its resource (in its file's documents), its condition, what was injected. */
export interface InjectionPoint {
  file: string;
  docs: Document[];
  doc: Document;
  apiVersion: string;
  kind: string;
  name: string;
  result: InjectionResult;
  errors: string[];
  injected?: string;
}

/** The injection points of the package's files, in path order. Throws {@link MutationError} on a bad annotation or a duplicate condition. */
export function findInjectionPoints(files: FileTree): InjectionPoint[] {
  const points: InjectionPoint[] = [];
  for (const file of [...files.keys()].sort()) {
    if (!(isYamlFile(file) || file.endsWith(".json") || path.basename(file) === KPTFILE)) continue;
    const docs = parseAllDocuments(files.get(file)!.toString("utf8"));
    if (!Array.isArray(docs)) continue;
    for (const doc of docs) {
      const value = doc.getIn(["metadata", "annotations", CONFIG_INJECTION]);
      if (value === undefined) continue;
      const kind = String(doc.get("kind") ?? "");
      const name = String(doc.getIn(["metadata", "name"]) ?? "");
      const point: InjectionPoint = {
        file,
        docs,
        doc,
        apiVersion: String(doc.get("apiVersion") ?? ""),
        kind,
        name,
        errors: [],
        result: {
          file,
          conditionType: ["config", "injection", kind, name].join("."),
          required: value === "required",
          status: "False",
          reason: "NoResourceSelected",
          message: "no resource matched any injection selector for this injection point",
        },
      };
      if (value !== "required" && value !== "optional") {
        throw new MutationError(
          `errors in injection points: ${file}: ${kind}/${name} has invalid ${JSON.stringify(CONFIG_INJECTION)} annotation value of ${JSON.stringify(String(value))}`,
        );
      }
      points.push(point);
    }
  }
  const seen = new Map<string, string>();
  for (const p of points) {
    const other = seen.get(p.result.conditionType);
    if (other !== undefined) {
      throw new MutationError(
        `errors in injection points: duplicate injection conditionType ${JSON.stringify(p.result.conditionType)} (${other} and ${p.file})`,
      );
    }
    seen.set(p.result.conditionType, p.file);
  }
  return points;
}

function matches(injector: InjectionSelector, point: InjectionPoint): boolean {
  const [g, v] = groupVersion(point.apiVersion);
  if (injector.group !== undefined && injector.group !== g) return false;
  if (injector.version !== undefined && injector.version !== v) return false;
  if (injector.kind !== undefined && injector.kind !== point.kind) return false;
  return true;
}

/** Injects into `point` the first injectable an injector selects, or records why none was. */
export function inject(
  point: InjectionPoint,
  injectors: readonly InjectionSelector[],
  injectables: readonly Injectable[],
): void {
  if (injectors.length === 0) {
    point.errors.push("no injectors defined");
    return;
  }
  const candidates = injectables.filter((r) => r.apiVersion === point.apiVersion && r.kind === point.kind);
  if (candidates.length === 0) {
    point.errors.push(`no in-cluster resources of type ${point.apiVersion}.${point.kind}`);
    return;
  }
  for (const injector of injectors) {
    if (!matches(injector, point)) continue;
    const source = candidates.find((r) => r.name === injector.name);
    if (!source) continue;
    const [g] = groupVersion(source.apiVersion);
    const field = g === "" && source.kind === "ConfigMap" ? "data" : "spec";
    if (!(field in source.data)) {
      point.errors.push(
        `field ${JSON.stringify(field)} not found in resource ${JSON.stringify(source.name)}`,
      );
      return;
    }
    point.doc.set(field, point.doc.createNode(source.data[field]));
    const ann = point.doc.getIn(["metadata", "annotations"], true);
    if (isMap(ann)) ann.set(str(INJECTED_RESOURCE), str(source.name));
    point.injected = source.name;
    return;
  }
}
