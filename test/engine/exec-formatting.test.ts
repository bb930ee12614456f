// biome-ignore-all lint/suspicious/noTemplateCurlyInString: kpt setter comments (`# kpt-set: ${name}`) are data here
/**
 * What the trip of resources through an exec function's stdin and stdout must not change (kpt
 * restores comments and field order with kyaml's CopyComments and SyncOrder): `exec: cat` leaves
 * every file byte for byte, however often it runs, and a function that sorts fields and drops
 * comments changes only the values it set.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import { createExecRuntime } from "../../src/runtimes/exec/exec-runtime.js";
import { fileText, loadFixture, withFile } from "./helpers.js";

const functionsDir = path.resolve(import.meta.dirname, "../fixtures/functions");

async function render(files: Map<string, Uint8Array>) {
  return renderPackage({
    files,
    runtime: createExecRuntime({ allow: true }),
    packageName: "exec-comments",
    cwd: functionsDir,
  });
}

describe("exec functions keep the package's formatting", () => {
  it("exec: cat leaves every resource file byte-identical, also on a second render", async () => {
    const input = await loadFixture("exec-comments");
    const first = await render(input);
    expect(first.ok, first.error).toBe(true);
    const second = await render(first.files!);
    for (const file of ["dns.yaml", "perimeter.yaml"]) {
      expect(fileText(first.files, file)).toBe(fileText(input, file));
      expect(fileText(second.files, file)).toBe(fileText(input, file));
    }
  });

  it("copies comments back by field path and restores the input's field order", async () => {
    const input = await loadFixture("exec-comments");
    const kptfile = fileText(input, "Kptfile")!.replace("exec: cat", "exec: node sort-fields.mjs");
    const result = await render(withFile(input, "Kptfile", kptfile));
    expect(result.ok, result.error).toBe(true);
    // As kpt writes it: the values the function set (ttl, and the quotes it dropped) changed; every
    // comment came back once, the line comment of the changed value too; the input's field order
    // and wide list indentation stayed. (kpt also drops the header comment above `---`; porchlight
    // keeps it.)
    expect(fileText(result.files, "dns.yaml")).toBe(
      [
        "# A record set with setter comments on key lines and a wide list.",
        "#",
        "# (own fixture: the pattern of the Config Connector blueprints)",
        "",
        "apiVersion: dns.example.com/v1beta1",
        "kind: DNSRecordSet",
        "metadata: # kpt-merge: networking/www",
        "  name: www # kpt-set: ${record-name}",
        "  namespace: networking # kpt-set: ${namespace}",
        "  annotations:",
        "    example.com/owner: team-a",
        "spec:",
        "  name: www.example.com. # kpt-set: ${name}${domain}",
        "  rrdatas: # kpt-set: ${records}",
        "    - 10.0.0.1",
        "    - 10.0.0.2",
        "  ttl: 600 # kpt-set: ${ttl}",
        "",
      ].join("\n"),
    );
    // A document whose content and comments came back unchanged keeps its bytes; the ConfigMap the
    // function rewrote in block style is written as the function wrote it, as kpt does.
    const perimeter = fileText(result.files, "perimeter.yaml")!;
    const [first, second] = perimeter.split("---\n");
    expect(first).toBe(fileText(input, "perimeter.yaml")!.split("---\n")[0]);
    expect(second).toBe(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flow\ndata:\n  a: "1"\n  b: "2"\n',
    );
  });
});
