// biome-ignore-all lint/suspicious/noTemplateCurlyInString: kpt setter comments (`# kpt-set: ${name}`) are data here
/**
 * kyaml's sequence indentation, derived per document (the first list under a `key:` line, comment
 * lines and trailing comments ignored) and kept when a function changes the document: apply-setters
 * writes a replaced list wide in a wide document and compact in a compact one of the same file.
 */
import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import { deriveSeqIndentStyle } from "../../src/krm/yaml-io.js";
import { createBuiltinRuntime } from "../../src/runtimes/builtin/registry.js";
import { fileText, loadFixture } from "./helpers.js";

describe("sequence indentation", () => {
  it("derives the style like kyaml: comment lines and a key line's trailing comment are skipped", () => {
    expect(deriveSeqIndentStyle("spec:\n  rrdatas: # kpt-set: ${records}\n    - a\n")).toBe("wide");
    expect(deriveSeqIndentStyle("spec:\n  list:\n  # note\n  - a\n")).toBe("compact");
    expect(deriveSeqIndentStyle("a: |\n  - not a list\nb:\n    - x\nc:\n  - y\n")).toBe("wide");
  });

  it("apply-setters writes a replaced list with its document's indentation", async () => {
    const files = await loadFixture("setters-indent");
    const result = await renderPackage({
      files,
      runtime: createBuiltinRuntime(),
      packageName: "setters-indent",
    });
    expect(result.ok, result.error).toBe(true);
    expect(fileText(result.files, "records.yaml")).toBe(
      [
        "apiVersion: dns.example.com/v1beta1",
        "kind: DNSRecordSet",
        "metadata:",
        "  name: www",
        "spec:",
        "  rrdatas: # kpt-set: ${records}",
        "    - 10.0.0.1",
        "    - 10.0.0.2",
        "  ttl: 300",
        "---",
        "apiVersion: example.com/v1",
        "kind: Firewall",
        "metadata:",
        "  name: allow",
        "spec:",
        "  ports: # kpt-set: ${ports}",
        '  - "80"',
        '  - "443"',
        "",
      ].join("\n"),
    );
  });
});
