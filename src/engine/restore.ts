/**
 * What the engine restores on a function's output resource from its input (kyaml's `CopyComments`
 * and `SyncOrder`, from the input's shape taken before the run), on document nodes. For now through
 * the Document implementations (`documentShape`, `copyComments`, `syncFieldOrder`): correct, one
 * conversion of each side.
 */

import { viaDocument } from "../krm/annotations-node.js";
import { copyComments } from "../krm/comments.js";
import { syncFieldOrder } from "../krm/field-order.js";
import { type DocumentShape, documentShape } from "../krm/resource-shape.js";
import type { YNode } from "../yaml/node.js";
import { nodeToDocument } from "../yaml/to-document.js";

/** A resource's comments and field order as taken before a run. */
export type InputShape = DocumentShape;

/** The shape of an input resource, taken before the function may edit it. */
export function takeInputShape(doc: YNode): InputShape {
  return documentShape(nodeToDocument(doc));
}

/** Copies the input's comments onto `out` and gives it the input's field order (in place). */
export function restoreInputShape(shape: InputShape, out: YNode): void {
  viaDocument(out, (d) => {
    copyComments(shape, d);
    syncFieldOrder(shape, d);
  });
}
