/**
 * Directives, anchors, aliases and tags (go-yaml v3's `yaml_parser_scan_directive`,
 * `yaml_parser_scan_anchor`, `yaml_parser_scan_tag`, `yaml_parser_scan_tag_handle`,
 * `yaml_parser_scan_tag_uri` with `yaml_parser_scan_uri_escapes`).
 */
import { asHex, isAlpha, isBlank, isBlankZ, isBreak, isBreakZ, isHex, isUriChar } from "./chars.js";
import type { ScanState } from "./state.js";
import { type Mark, SS, T, type Token } from "./tokens.js";

/** Whether a character may follow an anchor or alias name. */
function endsAnchor(c: number): boolean {
  return (
    isBlankZ(c) ||
    c === 63 ||
    c === 58 ||
    c === 44 ||
    c === 93 ||
    c === 125 ||
    c === 37 ||
    c === 64 ||
    c === 96
  );
}

/** `&name` or `*name` (`yaml_parser_scan_anchor`). @throws YamlError on an empty or ill-ended name. */
export function scanAnchor(s: ScanState, type: T): Token {
  const start = s.mark();
  s.skip();
  const from = s.pos;
  while (isAlpha(s.c())) s.skip();
  const name = s.src.slice(from, s.pos);
  if (name.length === 0 || !endsAnchor(s.c())) {
    s.error(
      "did not find expected alphabetic or numeric character",
      start,
      type === T.Anchor ? "while scanning an anchor" : "while scanning an alias",
    );
  }
  return s.tok(type, start, s.mark(), name);
}

/**
 * A tag: `!<uri>`, `!suffix`, `!handle!suffix` or `!` alone; the token's value is the handle, its
 * suffix the rest (`yaml_parser_scan_tag`). @throws YamlError on a malformed tag.
 */
export function scanTag(s: ScanState): Token {
  const start = s.mark();
  let handle = "";
  let suffix = "";
  if (s.c(1) === 60 /* < */) {
    s.skip();
    s.skip();
    suffix = scanUri(s, start);
    if (s.c() !== 62) s.error("did not find the expected '>'", start, "while scanning a tag");
    s.skip();
  } else {
    handle = scanTagHandle(s, start);
    if (handle.length > 1 && handle.endsWith("!")) {
      suffix = scanUri(s, start);
    } else {
      suffix = handle.slice(1) + scanUri(s, start);
      handle = "!";
      if (suffix === "") {
        handle = "";
        suffix = "!";
      }
    }
  }
  if (!isBlankZ(s.c()) && !(s.flowLevel > 0 && s.c() === 44)) {
    s.error("did not find expected whitespace or line break", start, "while scanning a tag");
  }
  return s.tok(T.Tag, start, s.mark(), handle, SS.Plain, suffix);
}

/** `!`, `!!` or `!name!` (`yaml_parser_scan_tag_handle`). */
function scanTagHandle(s: ScanState, start: Mark): string {
  if (s.c() !== 33) s.error("did not find expected '!'", start, "while scanning a tag");
  const from = s.pos;
  s.skip();
  while (isAlpha(s.c())) s.skip();
  if (s.c() === 33) s.skip();
  return s.src.slice(from, s.pos);
}

/** A tag's URI characters, %-escaped UTF-8 octets decoded (`yaml_parser_scan_tag_uri`). */
function scanUri(s: ScanState, start: Mark): string {
  let out = "";
  const flow = s.flowLevel > 0;
  for (;;) {
    const c = s.c();
    if (c === 37 /* % */) {
      out += scanUriEscapes(s, start);
      continue;
    }
    if (!isUriChar(c, flow)) break;
    out += s.src[s.pos];
    s.skip();
  }
  return out;
}

/** A run of `%XX` octets as UTF-8 text (`yaml_parser_scan_uri_escapes`). */
function scanUriEscapes(s: ScanState, start: Mark): string {
  const bytes: number[] = [];
  while (s.c() === 37) {
    if (!isHex(s.c(1)) || !isHex(s.c(2)))
      s.error("did not find URI escaped octet", start, "while parsing a tag");
    bytes.push(asHex(s.c(1)) * 16 + asHex(s.c(2)));
    s.skip();
    s.skip();
    s.skip();
  }
  return Buffer.from(bytes).toString("utf8");
}

/**
 * `%YAML 1.x` or `%TAG handle prefix`, with the rest of its line (`yaml_parser_scan_directive`).
 * @throws YamlError on an unknown or malformed directive.
 */
export function scanDirective(s: ScanState): Token {
  const start = s.mark();
  s.skip();
  const from = s.pos;
  while (isAlpha(s.c())) s.skip();
  const name = s.src.slice(from, s.pos);
  if (name === "" || !isBlankZ(s.c())) {
    s.error("could not find expected directive name", start, "while scanning a directive");
  }
  let token: Token;
  while (isBlank(s.c())) s.skip();
  if (name === "YAML") {
    const vFrom = s.pos;
    while (!isBlankZ(s.c())) s.skip();
    const version = s.src.slice(vFrom, s.pos);
    if (!/^\d+\.\d+$/.test(version))
      s.error("did not find expected version number", start, "while scanning a %YAML directive");
    token = s.tok(T.VersionDirective, start, s.mark(), version);
  } else if (name === "TAG") {
    const handle = scanTagHandle(s, start);
    if (!isBlank(s.c()))
      s.error("did not find expected whitespace", start, "while scanning a %TAG directive");
    while (isBlank(s.c())) s.skip();
    const prefix = scanUri(s, start);
    token = s.tok(T.TagDirective, start, s.mark(), handle, SS.Plain, prefix);
  } else {
    s.error("found unknown directive name", start, "while scanning a directive");
  }
  while (isBlank(s.c())) s.skip();
  if (s.c() === 35) while (!isBreakZ(s.c())) s.skip();
  if (!isBreakZ(s.c()))
    s.error("did not find expected comment or line break", start, "while scanning a directive");
  if (isBreak(s.c())) s.skipLine();
  return token;
}
