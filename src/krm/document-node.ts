/**
 * The engine's way back from a `yaml` Document to a document node (the working form): our layer's
 * adapter (`documentToNode`), with the document marked as one read after a `---` line where that is
 * what makes the adapter's reading (`nodeToDocument`) place the head comments where the Document had
 * them, so a node converted for a Document-only function and back reads as the same Document again.
 */
import { type Document, isMap, isSeq } from "yaml";
import { documentToNode } from "../yaml/from-document.js";
import { goComment, joinComments } from "../yaml/from-document-scalar.js";
import { Kind, Style, type YNode } from "../yaml/node.js";

/**
 * The document node for a Document (`documentToNode`), its `value` `---` when the Document's root
 * collection holds a comment above its content (`contents.commentBefore`), or the document comment
 * and the first item's both: `nodeToDocument` gives those back only to a document read after `---`.
 */
export function documentNode(doc: Document): YNode {
  const node = documentToNode(doc);
  const contents = doc.contents as unknown;
  if (isMap(contents) || isSeq(contents)) {
    const first = isMap(contents) ? contents.items[0]?.key : contents.items[0];
    const firstBefore =
      first && typeof first === "object"
        ? (first as { commentBefore?: string | null }).commentBefore
        : undefined;
    if (!contents.flow && (contents.commentBefore || (doc.commentBefore && firstBefore))) node.value = "---";
  }
  if (doc.comment && !doc.comment.startsWith("\n")) trailingToLastKey(node, doc.comment);
  return node;
}

/**
 * A Document's trailing comment that no blank line sets apart from the content: up to its first blank
 * line it is the root mapping's last key's foot comment (as `nodeToDocument` read it), the rest the
 * document's; so the writer puts no blank line above it, as the Document's writer did not.
 */
function trailingToLastKey(node: YNode, comment: string): void {
  const root = node.content[0];
  if (root?.kind !== Kind.Mapping || (root.style & Style.Flow) !== 0 || root.content.length === 0) return;
  const gap = comment.indexOf("\n\n");
  const own = gap < 0 ? comment : comment.slice(0, gap);
  const lastKey = root.content[root.content.length - 2];
  lastKey.footComment = joinComments(lastKey.footComment, goComment(own));
  node.footComment = gap < 0 ? "" : goComment(comment.slice(gap));
}
