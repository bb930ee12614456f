/**
 * Scalar analysis of the writer: yaml.v3's `yaml_emitter_analyze_scalar` (emitterc.go) with unicode
 * output allowed — which styles (plain in block or flow context, single-quoted, block) may write a
 * scalar's text, and whether it spans lines.
 */

/** What `yaml_emitter_analyze_scalar` decides for one text, as bits of a number. */
export const A_MULTILINE = 1;
export const A_FLOW_PLAIN = 2;
export const A_BLOCK_PLAIN = 4;
export const A_SINGLE = 8;
export const A_BLOCK = 16;

const SIMPLE = A_FLOW_PLAIN | A_BLOCK_PLAIN | A_SINGLE | A_BLOCK;
/** The analysis of the empty text. */
export const EMPTY_ANALYSIS = A_BLOCK_PLAIN | A_SINGLE;

/** yaml.v3's `is_break`: a line break character (code unit or code point). */
export function isBreakCode(c: number): boolean {
  return c === 10 || c === 13 || c === 0x85 || c === 0x2028 || c === 0x2029;
}

/** yaml.v3's `is_printable` on a code point. */
export function isPrintable(c: number): boolean {
  return (
    c === 0x0a ||
    (c >= 0x20 && c <= 0x7e) ||
    c === 0x85 ||
    (c >= 0xa0 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff)
  );
}

/**
 * ASCII classes: 1 a letter or digit, 2 `-` `.` `/` `_` (both: simple text, see `isSimple`), 3 any
 * other printable character without meaning inside a scalar, 4 space, 5 "\n", 0 anything else.
 */
const CLASS = (() => {
  const t = new Uint8Array(128);
  for (let c = 0x21; c <= 0x7e; c++) t[c] = 3;
  for (const c of ",?[]{}:#") t[c.charCodeAt(0)] = 0;
  for (const c of "-./_") t[c.charCodeAt(0)] = 2;
  for (let c = 48; c <= 57; c++) t[c] = 1;
  for (let c = 65; c <= 90; c++) t[c] = 1;
  for (let c = 97; c <= 122; c++) t[c] = 1;
  t[32] = 4;
  t[10] = 5;
  return t;
})();

/** Whether every character is a letter, digit, `-`, `.`, `/` or `_` and the first a letter or digit. */
function isSimple(value: string): boolean {
  const n = value.length;
  const c0 = value.charCodeAt(0);
  if (c0 >= 128 || CLASS[c0] !== 1) return false;
  for (let i = 1; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c >= 128) return false;
    const k = CLASS[c];
    if (k !== 1 && k !== 2) return false;
  }
  return n < 3 || !(value.startsWith("---") || value.startsWith("..."));
}

// What the analysis notices in a scalar's text, as bits.
const F_BLOCK_IND = 1;
const F_FLOW_IND = 2;
const F_LINE_BREAKS = 4;
const F_SPECIAL = 8;
const F_TABS = 16;
const F_LEADING_SPACE = 32;
const F_LEADING_BREAK = 64;
const F_TRAILING_SPACE = 128;
const F_TRAILING_BREAK = 256;
const F_BREAK_SPACE = 512;
const F_SPACE_BREAK = 1024;
const F_BOTH_IND = F_BLOCK_IND | F_FLOW_IND;

/** Indicator bits of the first character (`followed`: whitespace or the end comes next). */
function firstIndicators(cp: number, followed: boolean): number {
  switch (cp) {
    case 35:
    case 44:
    case 91:
    case 93:
    case 123:
    case 125:
    case 38:
    case 42:
    case 33:
    case 124:
    case 62:
    case 39:
    case 34:
    case 37:
    case 64:
    case 96:
      return F_BOTH_IND;
    case 63:
    case 58:
      return followed ? F_BOTH_IND : F_FLOW_IND;
    case 45:
      return followed ? F_BOTH_IND : 0;
    default:
      return 0;
  }
}

/** Indicator bits of a later character (`preceded`: whitespace came before it). */
function innerIndicators(cp: number, followed: boolean, preceded: boolean): number {
  switch (cp) {
    case 44:
    case 63:
    case 91:
    case 93:
    case 123:
    case 125:
      return F_FLOW_IND;
    case 58:
      return followed ? F_BOTH_IND : F_FLOW_IND;
    case 35:
      return preceded ? F_BOTH_IND : 0;
    default:
      return 0;
  }
}

// The run state of the character loop, as bits.
const R_SPACE = 1;
const R_BREAK = 2;
const R_PRECEDED = 4;

/**
 * One character of the loop the general way (any position, any character): the flags it sets,
 * shifted left by 3, with the next run state in the low 3 bits.
 */
function charStep(value: string, i: number, cp: number, w: number, run: number): number {
  const n = value.length;
  const nx = i + w < n ? value.charCodeAt(i + w) : -1;
  const followed = i + w >= n || nx === 32 || nx === 9;
  let f = i === 0 ? firstIndicators(cp, followed) : innerIndicators(cp, followed, (run & R_PRECEDED) !== 0);
  if (cp === 9) f |= F_TABS;
  else if (!isPrintable(cp)) f |= F_SPECIAL;
  const breakCode = isBreakCode(cp);
  if (cp === 32) {
    if (i === 0) f |= F_LEADING_SPACE;
    if (i + w === n) f |= F_TRAILING_SPACE;
    if (run & R_BREAK) f |= F_BREAK_SPACE;
  } else if (breakCode) {
    f |= F_LINE_BREAKS;
    if (i === 0) f |= F_LEADING_BREAK;
    if (i + w === n) f |= F_TRAILING_BREAK;
    if (run & R_SPACE) f |= F_SPACE_BREAK;
  }
  const next =
    (cp === 32 ? R_SPACE : 0) |
    (breakCode ? R_BREAK : 0) |
    (cp === 32 || cp === 9 || breakCode || cp === 0 ? R_PRECEDED : 0);
  return (f << 3) | next;
}

/**
 * The analysis bits of a scalar's text (yaml.v3's character loop). Inner ordinary characters,
 * spaces and "\n" (neither first nor last) take a short way; the rest goes through `charStep`.
 */
function scalarFlags(value: string): number {
  const n = value.length;
  let f = n >= 3 && (value.startsWith("---") || value.startsWith("...")) ? F_BOTH_IND : 0;
  let run = R_PRECEDED;
  for (let i = 0; i < n; ) {
    const c = value.charCodeAt(i);
    if (i > 0 && c < 128 && i + 1 < n) {
      const k = CLASS[c];
      if (k >= 1 && k <= 3) {
        run = 0;
        i++;
        continue;
      }
      if (k === 4) {
        if (run & R_BREAK) f |= F_BREAK_SPACE;
        run = R_SPACE | R_PRECEDED;
        i++;
        continue;
      }
      if (k === 5) {
        f |= F_LINE_BREAKS;
        if (run & R_SPACE) f |= F_SPACE_BREAK;
        run = R_BREAK | R_PRECEDED;
        i++;
        continue;
      }
    }
    const cp = c >= 0xd800 && c <= 0xdbff ? value.codePointAt(i)! : c;
    const w = cp > 0xffff ? 2 : 1;
    const step = charStep(value, i, cp, w, run);
    f |= step >> 3;
    run = step & 7;
    i += w;
  }
  return f;
}

/** The styles the flags allow (`A_*` bits). */
function allowed(f: number): number {
  const edges = F_LEADING_SPACE | F_LEADING_BREAK | F_TRAILING_SPACE | F_TRAILING_BREAK;
  const noPlain = edges | F_BREAK_SPACE | F_SPACE_BREAK | F_TABS | F_SPECIAL | F_LINE_BREAKS;
  return (
    ((f & F_LINE_BREAKS) !== 0 ? A_MULTILINE : 0) |
    ((f & (noPlain | F_FLOW_IND)) === 0 ? A_FLOW_PLAIN : 0) |
    ((f & (noPlain | F_BLOCK_IND)) === 0 ? A_BLOCK_PLAIN : 0) |
    ((f & (F_BREAK_SPACE | F_SPACE_BREAK | F_TABS | F_SPECIAL)) === 0 ? A_SINGLE : 0) |
    ((f & (F_TRAILING_SPACE | F_SPACE_BREAK | F_SPECIAL)) === 0 ? A_BLOCK : 0)
  );
}

/** yaml.v3's analysis of a scalar: which styles may write it (`A_*` bits). */
export function analyzeScalar(value: string): number {
  if (value.length === 0) return EMPTY_ANALYSIS;
  if (isSimple(value)) return SIMPLE;
  return allowed(scalarFlags(value));
}

// The analysis's flags as searches: what takes `A_BLOCK` away but a space at the end (a character
// `is_printable` refuses but a tab, a space before a break); what takes `A_SINGLE` away (such a
// character or a tab, a space before or after a break).
const NOT_BLOCK = /[^\t\n -~\x85\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd]| [\n\r\x85\u2028\u2029]/;
const NOT_SINGLE =
  /[^\n -~\x85\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd]|[\n\r\x85\u2028\u2029] | [\n\r\x85\u2028\u2029]/;

/**
 * The one bit of yaml.v3's analysis a block scalar's style reads, `A_BLOCK` (no special character,
 * no space at the end or before a break), found with one regex search instead of the character
 * loop; the other bits are 0.
 */
export function analyzeBlock(value: string): number {
  const n = value.length;
  return n === 0 || value.charCodeAt(n - 1) === 32 || NOT_BLOCK.test(value) ? 0 : A_BLOCK;
}

/**
 * The one bit of yaml.v3's analysis a single-quoted style reads, `A_SINGLE` (no special character
 * or tab, no space before or after a break), found as `analyzeBlock` finds its own.
 */
export function analyzeSingle(value: string): number {
  return NOT_SINGLE.test(value) ? 0 : A_SINGLE;
}

/**
 * The same analysis without the short ways (`isSimple`, the inner-character classes): every
 * character through `charStep`, as yaml.v3's loop reads it. The reference `analyzeScalar` is
 * checked against.
 */
export function analyzeScalarGeneral(value: string): number {
  if (value.length === 0) return EMPTY_ANALYSIS;
  const n = value.length;
  let f = n >= 3 && (value.startsWith("---") || value.startsWith("...")) ? F_BOTH_IND : 0;
  let run = R_PRECEDED;
  for (let i = 0; i < n; ) {
    const cp = value.codePointAt(i)!;
    const w = cp > 0xffff ? 2 : 1;
    const step = charStep(value, i, cp, w, run);
    f |= step >> 3;
    run = step & 7;
    i += w;
  }
  return allowed(f);
}
