/**
 * The KRM function wire format (kpt function spec): a `config.kubernetes.io/v1` `ResourceList` as one
 * YAML document on stdin/stdout. Items keep their comments on the way in and out.
 */
import { Document, isMap, isScalar, isSeq, type Node, parseDocument, YAMLSeq } from "yaml";
import type { FunctionResult, KrmResource, ResourceList, ResultSeverity } from "../../krm/resource-list.js";

function contentsWithComments(doc: KrmResource): Node | null {
  const clone = doc.clone();
  const contents = clone.contents as Node | null;
  if (contents && clone.commentBefore) {
    contents.commentBefore = contents.commentBefore
      ? `${clone.commentBefore}\n${contents.commentBefore}`
      : clone.commentBefore;
  }
  return contents;
}

/** Serialises a ResourceList for a function's stdin (YAML, block style). */
export function serializeResourceList(list: ResourceList): string {
  const out = new Document({ apiVersion: "config.kubernetes.io/v1", kind: "ResourceList" });
  const items = new YAMLSeq();
  for (const doc of list.items) items.items.push(contentsWithComments(doc));
  out.set("items", items);
  if (list.functionConfig) out.set("functionConfig", contentsWithComments(list.functionConfig));
  return out.toString({ lineWidth: 0 });
}

const SEVERITIES: readonly string[] = ["error", "warning", "warn", "info"];

function toResult(value: unknown): FunctionResult | undefined {
  if (!value || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  const result: FunctionResult = {
    message: typeof v.message === "string" ? v.message : String(v.message ?? ""),
  };
  if (typeof v.severity === "string" && SEVERITIES.includes(v.severity)) {
    result.severity = v.severity as ResultSeverity;
  }
  if (v.resourceRef && typeof v.resourceRef === "object") {
    result.resourceRef = v.resourceRef as FunctionResult["resourceRef"];
  }
  if (v.field && typeof v.field === "object") result.field = v.field as FunctionResult["field"];
  if (v.file && typeof v.file === "object") result.file = v.file as FunctionResult["file"];
  if (v.tags && typeof v.tags === "object") result.tags = v.tags as Record<string, string>;
  return result;
}

/**
 * Parses a function's stdout into a ResourceList. Each item becomes its own Document (comments
 * kept). @throws Error describing what is wrong when stdout is not a ResourceList.
 */
export function parseResourceList(text: string): ResourceList {
  const doc = parseDocument(text, { keepSourceTokens: false });
  if (doc.errors.length > 0) throw new Error(`invalid YAML: ${doc.errors[0].message}`);
  const root = doc.contents;
  if (!isMap(root)) throw new Error("output is not a ResourceList (expected a YAML mapping)");
  const kindNode = root.get("kind", true);
  const kind: unknown = isScalar(kindNode) ? kindNode.value : undefined;
  if (kind !== "ResourceList")
    throw new Error(`output has kind ${JSON.stringify(kind ?? "")}, expected ResourceList`);
  const itemsNode = root.get("items", true);
  const items: KrmResource[] = [];
  if (isSeq(itemsNode)) {
    for (const node of itemsNode.items) {
      if (!isMap(node)) continue;
      const item = new Document();
      item.contents = node;
      items.push(item);
    }
  }
  const list: ResourceList = { items, results: [] };
  const fc = root.get("functionConfig", true);
  if (isMap(fc)) {
    const fcDoc = new Document();
    fcDoc.contents = fc;
    list.functionConfig = fcDoc;
  }
  const results = root.get("results", true);
  if (isSeq(results)) {
    for (const r of results.toJSON() as unknown[]) {
      const parsed = toResult(r);
      if (parsed) list.results.push(parsed);
    }
  }
  return list;
}
