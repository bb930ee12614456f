/**
 * The event parser's state (the parser fields of go-yaml v3's `yaml_parser_t`): the scanner, the
 * state stack, the pending comments, and the token access that unfolds comments onto them
 * (`peek_token`, `yaml_parser_unfold_comments`, `yaml_parser_set_event_comments`).
 */
import { type Mark, Scanner, T, type Token, YamlError } from "../scanner.js";
import { type Event, P } from "./events.js";

const EMPTY_COMMENT = {
  scan: { index: 0, line: 0, column: 0 },
  token: { index: 0, line: 0, column: 0 },
  start: { index: 0, line: 0, column: 0 },
  end: { index: 0, line: 0, column: 0 },
  head: "",
  line: "",
  foot: "",
};

/** The parser's state; the states' handlers are functions over it (`document.ts`, `node.ts`, ...). */
export class ParseState {
  readonly s: Scanner;
  state = P.StreamStart;
  states: P[] = [];
  marks: Mark[] = [];
  headComment = "";
  lineComment = "";
  footComment = "";
  stemComment: string | null = null;
  tagDirectives: Array<[string, string]> = [];
  done = false;

  constructor(text: string) {
    this.s = new Scanner(text);
  }

  /** The next token, its comments moved onto the pending ones (`peek_token`). */
  peek(): Token {
    const token = this.s.peek();
    this.unfoldComments(token);
    return token;
  }

  /** Takes the scanner's comments tied at or before `token` (`yaml_parser_unfold_comments`). */
  private unfoldComments(token: Token): void {
    const s = this.s;
    const comments = s.comments;
    while (s.commentsHead < comments.length && token.start.index >= comments[s.commentsHead].token.index) {
      const c = comments[s.commentsHead];
      if (c.head.length > 0) {
        if (token.type === T.BlockEnd) break;
        this.headComment = this.headComment.length > 0 ? `${this.headComment}\n${c.head}` : c.head;
      }
      if (c.foot.length > 0)
        this.footComment = this.footComment.length > 0 ? `${this.footComment}\n${c.foot}` : c.foot;
      if (c.line.length > 0)
        this.lineComment = this.lineComment.length > 0 ? `${this.lineComment}\n${c.line}` : c.line;
      comments[s.commentsHead] = EMPTY_COMMENT;
      s.commentsHead++;
    }
  }

  /** Moves the pending comments onto `e` (`yaml_parser_set_event_comments`). */
  setEventComments(e: Event): void {
    e.head = this.headComment;
    e.line = this.lineComment;
    e.foot = this.footComment;
    this.headComment = "";
    this.lineComment = "";
    this.footComment = "";
    this.stemComment = null;
  }

  /** @throws YamlError, reported at the line yaml.v3 reports a parser error at. */
  fail(context: string, contextMark: Mark | undefined, problem: string, problemMark: Mark): never {
    // yaml.v3 reports a parser error at its context mark's line when it has one, else the problem's.
    const mark = contextMark && contextMark.line !== 0 ? contextMark : problemMark;
    throw new YamlError(problem, problemMark, context, mark.line === 0 && !contextMark ? 0 : mark.line);
  }

  /** Returns to the state on top of the stack. */
  pop(): void {
    this.state = this.states.pop()!;
  }
}
