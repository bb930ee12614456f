/**
 * Byte strings: Starlark strings are sequences of bytes (UTF-8 text, as in go.starlark.net), so the
 * interpreter represents a Starlark string as a JS string whose every char code is one byte (0–255),
 * a "binary string". ASCII text has the same representation in both worlds, which keeps the common
 * case of converting to and from host strings free.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range includes control characters
const ASCII = /^[\x00-\x7f]*$/;

/** Reports whether a JS string is pure ASCII (then it is its own byte string). */
export function isAscii(s: string): boolean {
  return ASCII.test(s);
}

/** Encodes a JS (UTF-16) string as a byte string of its UTF-8 encoding (lone surrogates become U+FFFD). */
export function toBytes(s: string): string {
  if (ASCII.test(s)) return s;
  return Buffer.from(s, "utf8").toString("latin1");
}

/** Decodes a byte string as UTF-8 into a JS string (invalid sequences become U+FFFD). */
export function fromBytes(b: string): string {
  if (ASCII.test(b)) return b;
  return Buffer.from(b, "latin1").toString("utf8");
}

/** The UTF-8 encoding of code point `r` as a byte string (surrogates and out-of-range become U+FFFD). */
export function encodeRune(r: number): string {
  if (r < 0x80) return String.fromCharCode(r);
  if (r < 0x800) return String.fromCharCode(0xc0 | (r >> 6), 0x80 | (r & 0x3f));
  if (r > 0x10ffff || (r >= 0xd800 && r < 0xe000)) r = 0xfffd;
  if (r < 0x10000) {
    return String.fromCharCode(0xe0 | (r >> 12), 0x80 | ((r >> 6) & 0x3f), 0x80 | (r & 0x3f));
  }
  return String.fromCharCode(
    0xf0 | (r >> 18),
    0x80 | ((r >> 12) & 0x3f),
    0x80 | ((r >> 6) & 0x3f),
    0x80 | (r & 0x3f),
  );
}

/** Result slot of {@link decodeRune}: the code point (U+FFFD when invalid) and its byte width. */
export interface Rune {
  r: number;
  size: number;
}

/**
 * Decodes the UTF-8 sequence at byte offset `i` of byte string `s` exactly as Go's utf8.DecodeRune:
 * an invalid or truncated sequence decodes as U+FFFD of width 1. Returns {r: 0xFFFD, size: 0} at the end.
 */
export function decodeRune(s: string, i: number, out: Rune = { r: 0, size: 0 }): Rune {
  const n = s.length;
  if (i >= n) {
    out.r = 0xfffd;
    out.size = 0;
    return out;
  }
  const c0 = s.charCodeAt(i);
  if (c0 < 0x80) {
    out.r = c0;
    out.size = 1;
    return out;
  }
  out.r = 0xfffd;
  out.size = 1;
  if (c0 < 0xc2 || c0 > 0xf4) return out;
  const c1 = i + 1 < n ? s.charCodeAt(i + 1) : -1;
  if (c0 < 0xe0) {
    if (c1 >= 0x80 && c1 < 0xc0) {
      out.r = ((c0 & 0x1f) << 6) | (c1 & 0x3f);
      out.size = 2;
    }
    return out;
  }
  let lo = 0x80;
  let hi = 0xbf;
  if (c0 === 0xe0) lo = 0xa0;
  else if (c0 === 0xed) hi = 0x9f;
  else if (c0 === 0xf0) lo = 0x90;
  else if (c0 === 0xf4) hi = 0x8f;
  if (c1 < lo || c1 > hi) return out;
  const c2 = i + 2 < n ? s.charCodeAt(i + 2) : -1;
  if (c2 < 0x80 || c2 >= 0xc0) return out;
  if (c0 < 0xf0) {
    out.r = ((c0 & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f);
    out.size = 3;
    return out;
  }
  const c3 = i + 3 < n ? s.charCodeAt(i + 3) : -1;
  if (c3 < 0x80 || c3 >= 0xc0) return out;
  out.r = ((c0 & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f);
  out.size = 4;
  return out;
}

/** Decodes the last rune of byte string `s[0:end]` (Go's utf8.DecodeLastRuneInString). */
export function decodeLastRune(s: string, end: number, out: Rune = { r: 0, size: 0 }): Rune {
  if (end <= 0) {
    out.r = 0xfffd;
    out.size = 0;
    return out;
  }
  const c = s.charCodeAt(end - 1);
  if (c < 0x80) {
    out.r = c;
    out.size = 1;
    return out;
  }
  const lim = Math.max(0, end - 4);
  let start = end - 1;
  while (start > lim && (s.charCodeAt(start) & 0xc0) === 0x80) start--;
  decodeRune(s, start, out);
  if (start + out.size !== end) {
    out.r = 0xfffd;
    out.size = 1;
  }
  return out;
}

/** The code points of byte string `s` (invalid bytes become U+FFFD, one per byte). */
export function runes(s: string): number[] {
  const out: number[] = [];
  const r: Rune = { r: 0, size: 0 };
  for (let i = 0; i < s.length; ) {
    decodeRune(s, i, r);
    out.push(r.r);
    i += r.size;
  }
  return out;
}

/** Number of runes in byte string `s` (Go's utf8.RuneCountInString). */
export function runeCount(s: string): number {
  if (ASCII.test(s)) return s.length;
  const r: Rune = { r: 0, size: 0 };
  let n = 0;
  for (let i = 0; i < s.length; n++) {
    decodeRune(s, i, r);
    i += r.size;
  }
  return n;
}

/** Reports whether byte string `s` is valid UTF-8. */
export function validUtf8(s: string): boolean {
  if (ASCII.test(s)) return true;
  const r: Rune = { r: 0, size: 0 };
  for (let i = 0; i < s.length; ) {
    decodeRune(s, i, r);
    if (r.r === 0xfffd && r.size === 1) return false;
    i += r.size;
  }
  return true;
}

/** Replaces each byte of an invalid UTF-8 sequence with the encoding of U+FFFD. */
export function utf8Transcode(s: string): string {
  if (validUtf8(s)) return s;
  let out = "";
  const r: Rune = { r: 0, size: 0 };
  for (let i = 0; i < s.length; ) {
    decodeRune(s, i, r);
    out += r.r === 0xfffd && r.size === 1 ? "\xef\xbf\xbd" : s.slice(i, i + r.size);
    i += r.size;
  }
  return out;
}

const PRINT = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** Go's strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function isPrint(r: number): boolean {
  if (r < 0x80) return r >= 0x20 && r < 0x7f;
  if (r === 0xfffd) return true;
  return PRINT.test(String.fromCodePoint(r));
}

const SPACE = /^\p{White_Space}$/u;

/** Go's unicode.IsSpace. */
export function isSpace(r: number): boolean {
  if (r < 0x100) {
    return r === 0x20 || (r >= 0x09 && r <= 0x0d) || r === 0x85 || r === 0xa0;
  }
  return SPACE.test(String.fromCodePoint(r));
}

const LETTER = /^\p{L}$/u;
const DIGIT = /^\p{Nd}$/u;
const UPPER = /^\p{Lu}$/u;
const LOWER = /^\p{Ll}$/u;
const TITLE = /^\p{Lt}$/u;

/** Go's unicode.IsLetter. */
export function isLetter(r: number): boolean {
  if (r < 0x80) return (r >= 0x41 && r <= 0x5a) || (r >= 0x61 && r <= 0x7a);
  return LETTER.test(String.fromCodePoint(r));
}

/** Go's unicode.IsDigit. */
export function isDigit(r: number): boolean {
  if (r < 0x80) return r >= 0x30 && r <= 0x39;
  return DIGIT.test(String.fromCodePoint(r));
}

/** Go's unicode.IsUpper. */
export function isUpper(r: number): boolean {
  if (r < 0x80) return r >= 0x41 && r <= 0x5a;
  return UPPER.test(String.fromCodePoint(r));
}

/** Go's unicode.IsLower. */
export function isLower(r: number): boolean {
  if (r < 0x80) return r >= 0x61 && r <= 0x7a;
  return LOWER.test(String.fromCodePoint(r));
}

/** Go's unicode.IsTitle. */
export function isTitle(r: number): boolean {
  if (r < 0x80) return false;
  return TITLE.test(String.fromCodePoint(r));
}

function simpleMap(r: number, f: (s: string) => string): number {
  const s = String.fromCodePoint(r);
  const m = f(s);
  if (m === s) return r;
  const cp = m.codePointAt(0)!;
  // Go maps rune to rune: multi-rune full mappings (ß -> SS) leave the rune unchanged.
  return m.length === (cp > 0xffff ? 2 : 1) ? cp : r;
}

/**
 * Simple upper-case mappings (UnicodeData) of the runes whose full mapping (JS's) is several runes:
 * Greek with ypogegrammeni (ᾀ -> ᾈ, ᾳ -> ᾼ, ῃ -> ῌ, ῳ -> ῼ).
 */
function upperOfMultiRune(r: number): number {
  if ((r >= 0x1f80 && r <= 0x1f87) || (r >= 0x1f90 && r <= 0x1f97) || (r >= 0x1fa0 && r <= 0x1fa7))
    return r + 8;
  if (r === 0x1fb3 || r === 0x1fc3 || r === 0x1ff3) return r + 9;
  return r;
}

/** Go's unicode.ToUpper (simple case mapping). */
export function toUpperRune(r: number): number {
  if (r < 0x80) return r >= 0x61 && r <= 0x7a ? r - 32 : r;
  const m = simpleMap(r, (s) => s.toUpperCase());
  return m === r ? upperOfMultiRune(r) : m;
}

/** Go's unicode.ToLower (simple case mapping: İ -> i, where the full mapping is i + U+0307). */
export function toLowerRune(r: number): number {
  if (r < 0x80) return r >= 0x41 && r <= 0x5a ? r + 32 : r;
  if (r === 0x130) return 0x69;
  return simpleMap(r, (s) => s.toLowerCase());
}

/**
 * Go's unicode.ToTitle: the upper case mapping, except for the digraphs with a distinct title case and
 * Georgian Mkhedruli, whose title case is itself.
 */
export function toTitleRune(r: number): number {
  if (r >= 0x1c4 && r <= 0x1cc) return 0x1c5 + 3 * Math.floor((r - 0x1c4) / 3);
  if (r >= 0x1f1 && r <= 0x1f3) return 0x1f2;
  if ((r >= 0x10d0 && r <= 0x10fa) || (r >= 0x10fd && r <= 0x10ff)) return r;
  return toUpperRune(r);
}

/** Runes that another rune maps to though they have no mapping of their own (ß, from ẞ), built once. */
let mappedTo: Set<number> | undefined;

function isMappedTo(r: number): boolean {
  if (mappedTo === undefined) {
    mappedTo = new Set();
    for (let c = 0x80; c < 0x20000; c++) {
      if (c >= 0xd800 && c < 0xe000) continue;
      const l = toLowerRune(c);
      if (l !== c) mappedTo.add(l);
      const u = toUpperRune(c);
      if (u !== c) mappedTo.add(u);
    }
  }
  return mappedTo.has(r);
}

/**
 * go.starlark.net's "cased" test: ASCII letters or runes whose Go unicode.SimpleFold is not themselves
 * (a case mapping or a case-folding orbit; not the Turkish dotted and dotless i).
 */
export function isCasedRune(r: number): boolean {
  if (r < 0x80) return (r >= 0x41 && r <= 0x5a) || (r >= 0x61 && r <= 0x7a);
  if (r === 0x130 || r === 0x131) return false;
  return toUpperRune(r) !== r || toLowerRune(r) !== r || toTitleRune(r) !== r || isMappedTo(r);
}

/** Applies a rune mapping to every rune of byte string `s` (invalid bytes map as U+FFFD). */
export function mapRunes(s: string, f: (r: number, i: number) => number): string {
  let out = "";
  const rr: Rune = { r: 0, size: 0 };
  let k = 0;
  for (let i = 0; i < s.length; k++) {
    decodeRune(s, i, rr);
    out += encodeRune(f(rr.r, k));
    i += rr.size;
  }
  return out;
}
