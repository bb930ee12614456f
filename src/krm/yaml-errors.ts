/**
 * YAML syntax errors worded like Go's yaml.v3 (which kpt uses), e.g.
 * `yaml: line 10: mapping values are not allowed in this context`: kpt's status messages quote them.
 */
import type { YAMLError } from "yaml";

/** A YAML file that cannot be parsed: `file` relative to the package root, `line` 1-based. */
export class YamlSyntaxError extends Error {
  readonly file: string;
  readonly line: number;
  /** The Go-style detail, `yaml: line N: <reason>`. */
  readonly detail: string;
  constructor(options: { file: string; line: number; detail: string }) {
    super(`${options.file}: ${options.detail}`);
    this.name = "YamlSyntaxError";
    this.file = options.file;
    this.line = options.line;
    this.detail = options.detail;
  }
}

/** Converts the `yaml` package's errors of one file into one Go-worded error. */
export function toYamlSyntaxError(file: string, errors: readonly YAMLError[]): YamlSyntaxError {
  const sorted = [...errors].sort((a, b) => a.pos[0] - b.pos[0]);
  const first = sorted[0];
  const startLine = first.linePos?.[0]?.line ?? 1;
  let line = startLine;
  let reason = first.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
  if (first.code === "BLOCK_AS_IMPLICIT_KEY" && first.message.startsWith("Nested mappings")) {
    reason = "mapping values are not allowed in this context";
    const next = sorted.find((e) => e !== first && e.code === "MULTILINE_IMPLICIT_KEY");
    line = next?.linePos?.[1]?.line ?? startLine;
  } else if (first.code === "MULTILINE_IMPLICIT_KEY" || first.code === "MISSING_CHAR") {
    reason = "could not find expected ':'";
  } else if (first.code === "BAD_INDENT" || first.code === "UNEXPECTED_TOKEN") {
    reason = "did not find expected key";
  } else if (first.code === "DUPLICATE_KEY") {
    reason = "mapping key already defined";
  }
  return new YamlSyntaxError({ file, line, detail: `yaml: line ${line}: ${reason}` });
}
