/**
 * The YAML scanner: text to tokens, with comments collected on the side as go-yaml v3's scanner
 * collects them (`scannerc.go`: head, line and foot comments tied to token positions). The phases
 * live in `scan/`: the state and reader primitives (`state.ts`), token fetching (`fetch.ts`),
 * simple keys and indentation (`simple-keys.ts`), directives, anchors and tags (`tags.ts`), plain
 * scalars (`plain.ts`), quoted scalars and escapes (`quoted.ts`), block scalars (`block.ts`) and
 * comments (`comments.ts`).
 */
import { fetchNext } from "./scan/fetch.js";
import { simpleKeyIsValid } from "./scan/simple-keys.js";
import { ScanState } from "./scan/state.js";
import { T, type Token } from "./scan/tokens.js";

export { type Comment, type Mark, SS, T, type Token, YamlError } from "./scan/tokens.js";

/** go-yaml v3's scanner (tokens with a two-token lookahead for comments). */
export class Scanner extends ScanState {
  private tokenAvailable = false;

  /** The next token, fetching as needed (the parser's `peek_token` minus comment unfolding). */
  peek(): Token {
    if (!this.tokenAvailable) this.fetchMore();
    return this.tokens[this.head];
  }

  /** Consumes the head token (the parser's `skip_token`). */
  skipToken(): void {
    this.tokenAvailable = false;
    this.parsed++;
    this.streamEndProduced = this.tokens[this.head].type === T.StreamEnd;
    this.head++;
    if (this.head >= 4096) {
      this.tokens.splice(0, this.head - 2);
      this.head = 2;
    }
  }

  /**
   * Fetches until two tokens are queued past the head and the head is no pending simple key
   * (`yaml_parser_fetch_more_tokens`).
   */
  private fetchMore(): void {
    for (;;) {
      if (this.head < this.tokens.length - 2) {
        const idx = this.simpleKeysByTok.get(this.parsed);
        if (idx === undefined) break;
        if (!simpleKeyIsValid(this, this.simpleKeys[idx])) break;
      }
      fetchNext(this);
    }
    this.tokenAvailable = true;
  }
}
