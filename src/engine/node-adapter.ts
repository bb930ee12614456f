/**
 * The adapter between the node and the Document forms of a function run (`runNodes` / `run`): a node
 * request's items converted to `yaml` Documents once, a Document outcome's items converted back to
 * document nodes. For runtimes and builtins that have no node form.
 */
import type { Document } from "yaml";
import { documentNode } from "../krm/document-node.js";
import type { NodeResourceList, ResourceList } from "../krm/resource-list.js";
import type { YNode } from "../yaml/node.js";
import { nodeToDocument } from "../yaml/to-document.js";
import type {
  FunctionRunOutcome,
  FunctionRunRequest,
  NodeRunOutcome,
  NodeRunRequest,
} from "./function-runtime.js";

/** A node ResourceList's items as Documents (the functionConfig and results shared). */
export function documentList(list: NodeResourceList): ResourceList {
  return { ...list, items: list.items.map(nodeToDocument) };
}

/** A Document ResourceList's items as document nodes; an item that is no Document is passed on as is. */
export function nodeList(list: ResourceList): NodeResourceList {
  const items: unknown = list.items;
  if (!Array.isArray(items)) return list as unknown as NodeResourceList;
  return { ...list, items: items.map((item) => (isDocument(item) ? documentNode(item) : item)) as YNode[] };
}

function isDocument(item: unknown): item is Document {
  return typeof item === "object" && item !== null && "contents" in item && "schema" in item;
}

/** A node request as a Document request (its items converted once). */
export function documentRequest(request: NodeRunRequest): FunctionRunRequest {
  return { ...request, input: documentList(request.input) };
}

/** A Document outcome as a node outcome (its output items converted once). */
export function nodeOutcome(outcome: FunctionRunOutcome): NodeRunOutcome {
  const { output, ...rest } = outcome;
  return output ? { ...rest, output: nodeList(output) } : rest;
}
