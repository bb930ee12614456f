/**
 * Comments in the writer: yaml.v3's `yaml_emitter_process_head_comment`, `..._line_comment`,
 * `..._foot_comment` and `yaml_emitter_write_comment` (emitterc.go).
 */
import { isBreakCode } from "./analyze.js";
import { type Emitter, put, putBreak, writeBreakChar, writeIndent } from "./output.js";

/** yaml.v3's `yaml_emitter_process_head_comment`: a pending tail comment, then the head comment. */
export function processHeadComment(em: Emitter): void {
  if (em.tailComment.length > 0) {
    writeIndent(em);
    writeComment(em, em.tailComment);
    em.tailComment = "";
    em.footIndent = Math.max(em.indent, 0);
  }
  if (em.headComment.length === 0) return;
  writeIndent(em);
  writeComment(em, em.headComment);
  em.headComment = "";
}

/** yaml.v3's `yaml_emitter_process_line_comment` (`linebreak`: break the line when there is none). */
export function processLineComment(em: Emitter, linebreak: boolean): void {
  if (em.lineComment.length === 0) {
    if (linebreak) putBreak(em);
    return;
  }
  if (!em.whitespace) put(em, " ");
  writeComment(em, em.lineComment);
  em.lineComment = "";
}

/** yaml.v3's `yaml_emitter_process_foot_comment`. */
export function processFootComment(em: Emitter): void {
  if (em.footComment.length === 0) return;
  writeIndent(em);
  writeComment(em, em.footComment);
  em.footComment = "";
  em.footIndent = Math.max(em.indent, 0);
}

/** yaml.v3's `yaml_emitter_write_comment`: each line at the indentation, `# ` added when missing. */
export function writeComment(em: Emitter, comment: string): void {
  let breaks = false;
  let pound = false;
  const n = comment.length;
  for (let i = 0; i < n; ) {
    const c = comment.charCodeAt(i);
    if (isBreakCode(c)) {
      writeBreakChar(em, comment, i);
      i++;
      breaks = true;
      pound = false;
    } else {
      if (breaks) writeIndent(em);
      if (!pound) {
        if (c !== 35) put(em, "# ");
        pound = true;
      }
      // The rest of the line at once.
      let j = i + 1;
      while (j < n && !isBreakCode(comment.charCodeAt(j))) j++;
      put(em, comment.slice(i, j));
      i = j;
      em.indention = false;
      breaks = false;
    }
  }
  if (!breaks) putBreak(em);
  em.whitespace = true;
}
