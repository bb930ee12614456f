/**
 * Character classes over UTF-16 char codes (go-yaml v3's `yamlprivateh.go`: `is_blank`, `is_break`,
 * `is_blankz`, `is_alpha`, `is_hex`, ...). The text is padded with NULs, so a look past the end reads 0.
 */

export const NUL = 0;
export const SP = 32;
export const TAB = 9;
export const LF = 10;
export const CR = 13;

/** Space or tab (`is_blank`). */
export function isBlank(c: number): boolean {
  return c === SP || c === TAB;
}

/** A line break: LF, CR, NEL, LS or PS (`is_break`). */
export function isBreak(c: number): boolean {
  return c === LF || c === CR || c === 0x85 || c === 0x2028 || c === 0x2029;
}

/** A line break or the end (`is_breakz`). */
export function isBreakZ(c: number): boolean {
  return c === NUL || isBreak(c);
}

/** Blank, line break or the end (`is_blankz`). */
export function isBlankZ(c: number): boolean {
  return c === SP || c === TAB || c === NUL || isBreak(c);
}

/** Characters of anchors, tag handles and directive names: `[0-9A-Za-z_-]` (`is_alpha`). */
export function isAlpha(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
}

/** A hexadecimal digit (`is_hex`). */
export function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** The value of a hexadecimal digit (`as_hex`). */
export function asHex(c: number): number {
  return c <= 57 ? c - 48 : c <= 70 ? c - 55 : c - 87;
}

/** Characters of a tag's URI part (yaml.v3 `scan_tag_uri`). */
export function isUriChar(c: number, flow: boolean): boolean {
  if (isAlpha(c)) return true;
  switch (c) {
    case 59:
    case 47:
    case 63:
    case 58:
    case 64:
    case 38:
    case 61:
    case 43:
    case 36: // ;/?:@&=+$
    case 46:
    case 33:
    case 126:
    case 42:
    case 39:
    case 40:
    case 41:
    case 37: // .!~*'()%
      return true;
    case 44:
    case 91:
    case 93: // , [ ]
      return !flow;
    default:
      return false;
  }
}

/** Whether `src` holds `---` (ch 45) or `...` (ch 46) at `pos`, followed by a blank or the end. */
export function isDocumentMarker(src: string, pos: number, ch: number): boolean {
  return (
    src.charCodeAt(pos) === ch &&
    src.charCodeAt(pos + 1) === ch &&
    src.charCodeAt(pos + 2) === ch &&
    isBlankZ(src.charCodeAt(pos + 3))
  );
}

/** Whether a character is an indicator or blank, which a plain scalar may not start with in general. */
export function isIndicator(c: number): boolean {
  switch (c) {
    case 45: // - ? : , [ ] { }
    case 63:
    case 58:
    case 44:
    case 91:
    case 93:
    case 123:
    case 125:
    case 35: // # & * ! | > ' " % @ `
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
      return true;
    default:
      return isBlankZ(c);
  }
}
