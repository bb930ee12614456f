/**
 * Null documents in package files, as kpt 1.0.0-beta.56 reads them (every expected text below is what
 * `kpt fn render` wrote for the same package): kyaml's ByteReader skips a document whose content is
 * tagged `!!null` (`null`, `~`, `Null`, `NULL`, an anchored null, an explicit `!!null`) with its
 * comments; a file left with no resource is not written; a `---` line with more than a comment after
 * it (past the first line) is refused; the Kptfile's first document is decoded as it is.
 */
import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import { testRuntime } from "./helpers.js";

const encoder = new TextEncoder();
const KPTFILE = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: nd\n";
const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
const AB = `${cm("a")}---\n${cm("b")}`;

async function render(file: string, kptfile = KPTFILE) {
  const files = new Map([
    ["Kptfile", encoder.encode(kptfile)],
    ["cm.yaml", encoder.encode(file)],
  ]);
  const result = await renderPackage({ files, runtime: testRuntime(), packageName: "nd" });
  const text = result.files?.get("cm.yaml");
  return { result, text: text === undefined ? undefined : new TextDecoder().decode(text) };
}

describe("null documents in a package file (checked against kpt fn render)", () => {
  it.each([
    ["null", `${cm("a")}---\nnull\n---\n~\n---\n${cm("b")}`],
    ["Null and NULL", `${cm("a")}---\nNull\n---\nNULL\n---\n${cm("b")}`],
    ["an anchored null and an anchor alone", `${cm("a")}---\n&x null\n---\n&y\n---\n${cm("b")}`],
    ["an explicit !!null tag", `!!null ""\n---\n${cm("a")}---\n!!null {a: 1}\n---\n${cm("b")}`],
    ["a leading and a trailing null", `null\n---\n${cm("a")}---\n${cm("b")}---\nnull\n`],
    ["a null at the end without a line break", `${cm("a")}---\n${cm("b")}---\nnull`],
    ["`--- null` on the first line", `--- null\n---\n${AB}`],
    ["a null with a document end marker", `${cm("a")}---\nnull\n...\n---\n${cm("b")}`],
    ["an empty and a comment-only document", `${cm("a")}---\n---\n# only a comment\n---\n${cm("b")}`],
  ])("drops %s and writes the rest", async (_, file) => {
    const { result, text } = await render(file);
    expect(result.ok, result.error).toBe(true);
    expect(text).toBe(AB);
  });

  it("drops the comments of a null document and keeps its neighbours'", async () => {
    const file = `${cm("a")}# foot of a\n---\n# head of null\nnull # line of null\n# after null\n---\n# head of b\n${cm("b")}`;
    const { text } = await render(file);
    expect(text).toBe(`${cm("a")}# foot of a\n---\n# head of b\n${cm("b")}`);
  });

  it("keeps each remaining document's sequence indentation and CRLF reads as LF", async () => {
    const wide = "apiVersion: v1\nkind: List\nmetadata:\n  name: l\nitems:\n  - a\n  - b\n";
    expect((await render(`${cm("a")}---\nnull\n---\n${wide}`)).text).toBe(`${cm("a")}---\n${wide}`);
    const crlf = `${cm("a")}---\nnull\n---\n${cm("b")}`.replace(/\n/g, "\r\n");
    expect((await render(crlf)).text).toBe(AB);
  });

  it("keeps the licence header above the first `---` on the first resource (deliberately not kpt)", async () => {
    const { text } = await render(`# licence\n---\nnull\n---\n${AB}`);
    expect(text).toBe(`# licence\n\n${AB}`);
  });

  it.each([["null\n"], ["# c\n~\n"], ["null\n---\n~\n---\n"], ["# licence\n---\nnull\n"], ["\n---\nnull\n"]])(
    "leaves a file with no resource but null documents as it is (%j)",
    async (file) => {
      const { result, text } = await render(file);
      expect(result.ok, result.error).toBe(true);
      expect(text).toBe(file);
    },
  );

  it("refuses a `---` line with more than a comment after it past the first line, as kyaml does", async () => {
    const { result, text } = await render(`${cm("a")}--- null\n---\n${cm("b")}`);
    expect(result.ok).toBe(false);
    expect(result.error).toBe("pkg.render: pkg .: cm.yaml: invalid document separator: --- null");
    expect(text).toBe(`${cm("a")}--- null\n---\n${cm("b")}`);
    expect((await render(`${cm("a")}--- |\n  text\n---\n${cm("b")}`)).result.error).toBe(
      "pkg.render: pkg .: cm.yaml: invalid document separator: --- |",
    );
    expect((await render(`${cm("a")}--- # fine\n${cm("b")}`)).text).toBe(AB);
  });

  it("reads the Kptfile's first document as it is: a leading null or empty one is an unknown resource type", async () => {
    for (const head of ["null\n---\n", "~\n---\n", "&a\n---\n", '!!null ""\n---\n', "---\n---\n"]) {
      const { result } = await render(AB, `${head}${KPTFILE}`);
      expect(result.ok, head).toBe(false);
      expect(result.cliError, head).toContain('has an unknown resource type ("/, Kind=")');
    }
    for (const kptfile of [`${KPTFILE}---\nnull\n`, `# c\n---\n${KPTFILE}`, `\n---\n${KPTFILE}`]) {
      const { result, text } = await render(`${cm("a")}---\nnull\n---\n${cm("b")}`, kptfile);
      expect(result.ok, kptfile).toBe(true);
      expect(text).toBe(AB);
    }
  });
});
