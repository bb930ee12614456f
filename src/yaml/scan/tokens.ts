/**
 * The scanner's vocabulary: token kinds and scalar styles (go-yaml v3's `yaml_token_type_t`,
 * `yaml_scalar_style_t`), positions, tokens, the comments collected beside them (`yaml_comment_t`),
 * and the error worded as yaml.v3 words it.
 */

/** Token kinds (yaml.v3's `yaml_token_type_t`). */
export enum T {
  StreamStart,
  StreamEnd,
  VersionDirective,
  TagDirective,
  DocumentStart,
  DocumentEnd,
  BlockSequenceStart,
  BlockMappingStart,
  BlockEnd,
  FlowSequenceStart,
  FlowSequenceEnd,
  FlowMappingStart,
  FlowMappingEnd,
  BlockEntry,
  FlowEntry,
  Key,
  Value,
  Alias,
  Anchor,
  Tag,
  Scalar,
}

/** Scalar styles as the scanner reports them (yaml.v3's `yaml_scalar_style_t`). */
export enum SS {
  Plain = 1,
  Single = 2,
  Double = 3,
  Literal = 4,
  Folded = 5,
}

/** A position: code-unit offset, 0-based line and column. */
export interface Mark {
  index: number;
  line: number;
  column: number;
}

/** A token (yaml.v3's `yaml_token_t`). */
export interface Token {
  type: T;
  start: Mark;
  end: Mark;
  /** Scalar text, anchor/alias name, tag handle, directive handle. */
  value: string;
  /** Tag suffix or %TAG prefix. */
  suffix: string;
  style: SS;
}

/** A comment tied to token positions (yaml.v3's `yaml_comment_t`): head, line or foot text. */
export interface Comment {
  scan: Mark;
  token: Mark;
  start: Mark;
  end: Mark;
  head: string;
  line: string;
  foot: string;
}

/** A YAML syntax error worded as yaml.v3 words it (`yaml: line N: problem`). */
export class YamlError extends Error {
  constructor(
    readonly problem: string,
    readonly mark: Mark,
    readonly context = "",
    /** yaml.v3 reports scanner errors at line+1 of their context mark. */
    readonly goLine = mark.line + 1,
  ) {
    super(`yaml: line ${goLine}: ${problem}`);
  }
}
