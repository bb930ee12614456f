/**
 * What `fn eval` reads besides the package: the function config from `k=v` arguments or `--fn-config`, and
 * the resources on stdin (`-`), as kpt's `fn eval` reads them.
 */
import { readFile } from "node:fs/promises";
import { Document, isMap, isSeq, parseAllDocuments, Scalar, YAMLMap } from "yaml";
import { krmProblem } from "../engine/entries.js";
import { INTERNAL_INDEX, LEGACY_INDEX, SEQ_INDENT, setAnnotations } from "../krm/annotations.js";
import { isNullDocument } from "../krm/yaml-chunks.js";
import { deriveSeqIndentStyle } from "../krm/yaml-io.js";

/** A usage problem, printed as kpt prints cobra's errors (`error: ...`). */
export class UsageError extends Error {}

/**
 * kpt's `getCLIFunctionConfig`: a ConfigMap `function-input` whose `data` holds the `k=v` arguments
 * as strings, in order; a first argument without `=` is the kind.
 * @throws UsageError when an argument has no `=`.
 */
export function argsFunctionConfig(items: readonly string[]): Document {
  let kind = "ConfigMap";
  const data = new YAMLMap();
  items.forEach((item, i) => {
    const eq = item.indexOf("=");
    if (eq < 0 && i === 0) {
      kind = item;
      return;
    }
    if (eq < 0) throw new UsageError("args must have keys and values separated by =");
    const value = new Scalar(item.slice(eq + 1));
    data.set(item.slice(0, eq), value);
  });
  if (data.items.length === 0) data.flow = true;
  const doc = new Document({ metadata: { name: "function-input" } });
  const root = doc.contents as YAMLMap;
  root.set("data", data);
  root.set("kind", kind);
  root.set("apiVersion", "v1");
  return doc;
}

/**
 * kpt's `GetValidatedFnConfigFromPath` for `--fn-config`: one KRM resource.
 * @throws UsageError naming the file when it is missing, has several documents or is not KRM.
 */
export async function readFnConfig(file: string): Promise<Document> {
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined) throw new UsageError(`missing function config file: ${file}`);
  const docs = parseAllDocuments(text);
  const list = (Array.isArray(docs) ? docs : []).filter((d) => d.errors.length > 0 || !isNullDocument(d));
  const bad = list.find((d) => d.errors.length > 0);
  if (bad)
    throw new UsageError(`failed to read functionConfig ${JSON.stringify(file)}: ${bad.errors[0].message}`);
  if (list.length !== 1) {
    throw new UsageError(
      `functionConfig ${JSON.stringify(file)} must not contain more than one config, got ${list.length}`,
    );
  }
  const problem = krmProblem(list[0]);
  if (problem) throw new UsageError(`functionConfig ${JSON.stringify(file)}: ${problem}`);
  return list[0];
}

/**
 * The resources of a ResourceList (or `List`) on stdin, or, when the input is not one, each YAML
 * document annotated with its index as kyaml's ByteReader annotates it.
 */
export function stdinResources(text: string): Document[] {
  // Empty documents (`---` twice, a leading `---`, only a comment, `null`) are skipped, as kyaml skips them.
  const docs = (parseAllDocuments(text) as Document[]).filter(
    (d) => d.errors.length > 0 || !isNullDocument(d),
  );
  const bad = docs.find((d) => d.errors.length > 0);
  if (bad) throw new UsageError(`failed to read the input: ${bad.errors[0].message}`);
  if (docs.length === 1) {
    const root = docs[0].contents;
    const kind = isMap(root) ? root.get("kind") : undefined;
    const items = isMap(root) ? root.get("items", true) : undefined;
    if ((kind === "ResourceList" || kind === "List") && isSeq(items)) {
      // A comment above the first item belongs to it (the parser gives it to the list).
      const first = items.items[0];
      if (items.commentBefore && isMap(first)) {
        first.commentBefore = first.commentBefore
          ? `${items.commentBefore}\n${first.commentBefore}`
          : items.commentBefore;
      }
      return items.items.filter(isMap).map((node) => {
        const doc = new Document(undefined, { customTags: ["binary", "timestamp"] });
        doc.contents = node;
        return doc;
      });
    }
  }
  const style = deriveSeqIndentStyle(text);
  return docs.map((doc, index) => {
    if (isMap(doc.contents)) {
      setAnnotations(doc, [
        [INTERNAL_INDEX, String(index)],
        [LEGACY_INDEX, String(index)],
        [SEQ_INDENT, style],
      ]);
    }
    return doc;
  });
}

/** All of stdin as UTF-8. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}
