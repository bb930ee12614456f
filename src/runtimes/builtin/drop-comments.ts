/**
 * `drop-comments` (krm-functions-catalog): removes every YAML comment from every resource. Note that
 * kpt copies comments back from the input onto fields the function left without one (kyaml's
 * comment reconciliation, done by the render engine), so under `render` the comments of
 * unchanged fields survive, as kpt's `preserve-comments` case shows.
 */
import { Document, isCollection, isNode, isPair, type Node, visit } from "yaml";
import type { BuiltinFunction } from "./builtin-function.js";

function strip(node: Node | null | undefined): void {
  if (!node) return;
  visit(node, (_key, n) => {
    if (isNode(n)) {
      n.comment = undefined;
      n.commentBefore = undefined;
    }
    if (isPair(n) && isNode(n.key)) {
      n.key.comment = undefined;
      n.key.commentBefore = undefined;
    }
    return undefined;
  });
  if (isCollection(node)) node.comment = undefined;
}

/** The builtin `drop-comments`. */
export const dropComments: BuiltinFunction = {
  name: "drop-comments",
  catalogVersion: "latest",
  run(input) {
    for (const doc of input.items) {
      if (doc instanceof Document) {
        doc.commentBefore = null;
        doc.comment = null;
      }
      strip(doc.contents as Node | null);
    }
    return { items: input.items, results: [] };
  },
};
