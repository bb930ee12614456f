/**
 * The `json` module as go.starlark.net provides it (lib/json): encode, encode_indent, decode, indent,
 * with its output format (sorted object keys, Go's string escaping) and error messages.
 */
import { toStr, unpackArgs, unpackPositional } from "../eval/args.js";
import type { Thread } from "../eval/thread.js";
import {
  Builtin,
  Dict,
  Float,
  fail,
  intText,
  type Kwargs,
  List,
  Module,
  None,
  normBig,
  repr,
  StarlarkError,
  type SValue,
  typeName,
  type Value,
} from "../eval/values.js";
import { decodeRune, encodeRune, type Rune, toBytes } from "../internal/utf8.js";
import { goQuoteRune } from "../syntax/scanner.js";

const HEX = "0123456789abcdef";

function isPrintableASCII(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const b = s.charCodeAt(i);
    if (b < 0x20 || b >= 0x80) return false;
  }
  return true;
}

/** Quotes a byte string as Go's encoding/json does (HTML-safe, invalid UTF-8 as \ufffd). */
function quoteJSON(s: string): string {
  if (isPrintableASCII(s)) return `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  let out = '"';
  const r: Rune = { r: 0, size: 0 };
  for (let i = 0; i < s.length; ) {
    const b = s.charCodeAt(i);
    if (b < 0x80) {
      if (b >= 0x20 && b !== 0x22 && b !== 0x5c && b !== 0x3c && b !== 0x3e && b !== 0x26) {
        out += s[i];
      } else {
        switch (b) {
          case 0x5c:
          case 0x22:
            out += `\\${s[i]}`;
            break;
          case 0x08:
            out += "\\b";
            break;
          case 0x0c:
            out += "\\f";
            break;
          case 0x0a:
            out += "\\n";
            break;
          case 0x0d:
            out += "\\r";
            break;
          case 0x09:
            out += "\\t";
            break;
          default:
            out += `\\u00${HEX[b >> 4]}${HEX[b & 15]}`;
        }
      }
      i++;
      continue;
    }
    decodeRune(s, i, r);
    if (r.r === 0xfffd && r.size === 1) out += "\\ufffd";
    else if (r.r === 0x2028 || r.r === 0x2029) out += `\\u${r.r.toString(16)}`;
    else out += s.slice(i, i + r.size);
    i += r.size;
  }
  return `${out}"`;
}

function encodeValue(th: Thread, x: Value): string {
  const path: SValue[] = [];
  const parts: string[] = [];
  const emit = (v: Value): void => {
    switch (typeof v) {
      case "boolean":
        parts.push(v ? "true" : "false");
        return;
      case "number":
        parts.push(String(v));
        return;
      case "bigint":
        parts.push(intText(v));
        return;
      case "string":
        parts.push(quoteJSON(v));
        return;
    }
    if (v === None) {
      parts.push("null");
      return;
    }
    if (v instanceof Float) {
      if (!Number.isFinite(v.v)) fail(`cannot encode non-finite float ${v.repr()}`);
      parts.push(v.repr());
      return;
    }
    if (path.includes(v)) fail("cycle in JSON structure");
    path.push(v);
    th.charge(1);
    try {
      if (v.items !== undefined && v.get !== undefined && v.iterate !== undefined) {
        const items = v.items();
        for (const [k] of items) {
          if (typeof k !== "string") fail(`${typeName(v)} has ${typeName(k)} key, want string`);
        }
        items.sort((a, b) =>
          (a[0] as string) < (b[0] as string) ? -1 : (a[0] as string) > (b[0] as string) ? 1 : 0,
        );
        parts.push("{");
        items.forEach(([k, val], i) => {
          if (i > 0) parts.push(",");
          parts.push(quoteJSON(k as string), ":");
          try {
            emit(val);
          } catch (e) {
            wrap(e, `in ${typeName(v)} key ${repr(k)}: `);
          }
        });
        parts.push("}");
        return;
      }
      if (v.iterate !== undefined) {
        parts.push("[");
        const it = v.iterate();
        try {
          let i = 0;
          for (let e = it.next(); e !== undefined; e = it.next(), i++) {
            if (i > 0) parts.push(",");
            try {
              emit(e);
            } catch (err) {
              wrap(err, `at ${typeName(v)} index ${i}: `);
            }
          }
        } finally {
          it.done();
        }
        parts.push("]");
        return;
      }
      if (v.attr !== undefined && v.attrNames !== undefined) {
        const names = [...v.attrNames()].sort();
        parts.push("{");
        names.forEach((name, i) => {
          const val = v.attr!(name);
          if (val === undefined)
            fail(`missing attribute ${typeName(v)}.${name} (despite "${name}" appearing in dir()`);
          if (i > 0) parts.push(",");
          parts.push(quoteJSON(name), ":");
          try {
            emit(val);
          } catch (e) {
            wrap(e, `in field .${name}: `);
          }
        });
        parts.push("}");
        return;
      }
      fail(`cannot encode ${typeName(v)} as JSON`);
    } finally {
      path.pop();
    }
  };
  emit(x);
  const out = parts.join("");
  th.alloc(out.length);
  return out;
}

function wrap(e: unknown, prefix: string): never {
  if (e instanceof StarlarkError && !e.message.startsWith("Starlark computation cancelled")) {
    throw new StarlarkError(prefix + e.message);
  }
  throw e;
}

function encode(th: Thread, args: Value[], kwargs: Kwargs | null, name: string): string {
  const [x] = unpackPositional(name, args, kwargs, 1, [undefined]) as [Value];
  try {
    return encodeValue(th, x);
  } catch (e) {
    return wrap(e, `${name}: `);
  }
}

class JSONSyntaxError extends Error {}

/**
 * encoding/json's quoteChar: the rune of the byte's value quoted as strconv.Quote does ('\n', '\x7f',
 * 'â' for 0xe2), in UTF-8 like the rest of the message.
 */
function quoteChar(c: string): string {
  if (c === '"') return "'\"'";
  return toBytes(goQuoteRune(c));
}

/** Go's json.Indent: validates `src` and reformats it; throws with Go's syntax error messages. */
function indentJSON(src: string, prefix: string, indent: string): string {
  let i = 0;
  const n = src.length;
  let out = "";
  const ws = () => {
    while (i < n) {
      const c = src[i]!;
      if (c === " " || c === "\t" || c === "\n" || c === "\r") i++;
      else break;
    }
  };
  const nl = (depth: number) => {
    out += `\n${prefix}${indent.repeat(depth)}`;
  };
  const bad = (what: string): never => {
    if (i >= n) throw new JSONSyntaxError("unexpected end of JSON input");
    throw new JSONSyntaxError(`invalid character ${quoteChar(src[i]!)} ${what}`);
  };
  const value = (depth: number): void => {
    ws();
    if (i >= n) bad("looking for beginning of value");
    const c = src[i]!;
    if (c === "{") {
      i++;
      ws();
      if (src[i] === "}") {
        i++;
        out += "{}";
        return;
      }
      out += "{";
      for (;;) {
        ws();
        if (src[i] !== '"') bad("looking for beginning of object key string");
        nl(depth + 1);
        str();
        ws();
        if (src[i] !== ":") bad("after object key");
        i++;
        out += ": ";
        value(depth + 1);
        ws();
        if (src[i] === ",") {
          i++;
          out += ",";
          continue;
        }
        if (src[i] === "}") {
          i++;
          nl(depth);
          out += "}";
          return;
        }
        bad("after object key:value pair");
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (src[i] === "]") {
        i++;
        out += "[]";
        return;
      }
      out += "[";
      for (;;) {
        nl(depth + 1);
        value(depth + 1);
        ws();
        if (src[i] === ",") {
          i++;
          out += ",";
          continue;
        }
        if (src[i] === "]") {
          i++;
          nl(depth);
          out += "]";
          return;
        }
        bad("after array element");
      }
    }
    if (c === '"') {
      str();
      return;
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(src.slice(i));
    if (m !== null && m[0] !== "" && m[0] !== "-") {
      out += m[0];
      i += m[0].length;
      return;
    }
    for (const lit of ["true", "false", "null"]) {
      if (src.startsWith(lit, i)) {
        out += lit;
        i += lit.length;
        return;
      }
    }
    bad("looking for beginning of value");
  };
  const str = (): void => {
    const start = i;
    i++;
    while (i < n && src[i] !== '"') {
      if (src[i] === "\\") i++;
      else if (src.charCodeAt(i) < 0x20) bad("in string literal");
      i++;
    }
    if (i >= n) bad("in string literal");
    i++;
    out += src.slice(start, i);
  };
  value(0);
  ws();
  if (i < n) bad("after top-level value");
  return out;
}

function indentFn(th: Thread, kwargs: Kwargs | null, name: string, source: string): string {
  const [prefix, indent] = unpackArgs(name, [], kwargs, [
    ["prefix?", toStr],
    ["indent?", toStr],
  ]) as [string?, string?];
  try {
    const out = indentJSON(source, prefix ?? "", indent ?? "\t");
    th.alloc(out.length);
    return out;
  } catch (e) {
    if (e instanceof JSONSyntaxError) fail(`${name}: ${e.message}`);
    throw e;
  }
}

const encodeB = new Builtin("json.encode", (th, args, kwargs, _recv, name) => encode(th, args, kwargs, name));

const encodeIndentB = new Builtin("json.encode_indent", (th, args, kwargs, _recv, name) => {
  unpackArgs(name, [], kwargs, ["prefix?", "indent?"]);
  const s = encode(th, args, null, name);
  return indentFn(th, kwargs, name, s);
});

const indentB = new Builtin("json.indent", (th, args, kwargs, _recv, name) => {
  unpackArgs(name, [], kwargs, ["prefix?", "indent?"]);
  const [s] = unpackPositional(name, args, null, 1, [toStr]) as [string];
  return indentFn(th, kwargs, name, s);
});

class Failure {
  constructor(readonly msg: string) {}
}

function goQuoteByte(b: string): string {
  // Go's %q of a byte quotes the rune of that value ('â' for 0xe2), in UTF-8 like the rest of the message.
  return toBytes(goQuoteRune(b));
}

/** Decodes a JSON string literal (with quotes) as Go's json.Unmarshal into a string would. */
function unquoteJSON(r: string): string {
  let out = "";
  const rr: Rune = { r: 0, size: 0 };
  const n = r.length - 1;
  for (let i = 1; i < n; ) {
    const c = r.charCodeAt(i);
    if (c === 0x5c) {
      const e = r[i + 1];
      switch (e) {
        case '"':
        case "\\":
        case "/":
          out += e;
          i += 2;
          continue;
        case "b":
          out += "\b";
          i += 2;
          continue;
        case "f":
          out += "\f";
          i += 2;
          continue;
        case "n":
          out += "\n";
          i += 2;
          continue;
        case "r":
          out += "\r";
          i += 2;
          continue;
        case "t":
          out += "\t";
          i += 2;
          continue;
        case "u": {
          const h = r.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(h))
            throw new Failure("invalid character in \\u hexadecimal character escape");
          let cp = Number.parseInt(h, 16);
          i += 6;
          if (cp >= 0xd800 && cp < 0xdc00) {
            const h2 = r.slice(i + 2, i + 6);
            if (r[i] === "\\" && r[i + 1] === "u" && /^[0-9a-fA-F]{4}$/.test(h2)) {
              const lo = Number.parseInt(h2, 16);
              if (lo >= 0xdc00 && lo < 0xe000) {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                i += 6;
              } else {
                cp = 0xfffd;
              }
            } else {
              cp = 0xfffd;
            }
          } else if (cp >= 0xdc00 && cp < 0xe000) {
            cp = 0xfffd;
          }
          out += encodeRune(cp);
          continue;
        }
        default:
          throw new Failure(`invalid character ${goQuoteByte(e ?? "")} in string escape code`);
      }
    }
    if (c < 0x20) throw new Failure(`invalid character ${goQuoteByte(r[i]!)} in string literal`);
    if (c < 0x80) {
      out += r[i];
      i++;
      continue;
    }
    decodeRune(r, i, rr);
    out += rr.r === 0xfffd && rr.size === 1 ? "\xef\xbf\xbd" : r.slice(i, i + rr.size);
    i += rr.size;
  }
  return out;
}

const isdigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

function decodeString(th: Thread, s: string): Value {
  let i = 0;
  const failure = (msg: string): never => {
    throw new Failure(msg);
  };
  const skipSpace = (): boolean => {
    for (; i < s.length; i++) {
      const b = s[i];
      if (b !== " " && b !== "\t" && b !== "\n" && b !== "\r") return true;
    }
    return false;
  };
  const next = (): string => {
    if (skipSpace()) return s[i]!;
    return failure("unexpected end of file");
  };
  const parse = (): Value => {
    th.charge(1);
    const b = next();
    switch (b) {
      case '"': {
        let safe = true;
        let closed = false;
        let j = i + 1;
        for (; j < s.length; j++) {
          const c = s.charCodeAt(j);
          if (c === 0x5c) {
            safe = false;
            j++;
          } else if (c === 0x22) {
            closed = true;
            j++;
            break;
          } else if (c >= 0x80) {
            // (a raw control character passes when nothing else needs unquoting, as in go.starlark.net)
            safe = false;
          }
        }
        if (!closed) failure("unclosed string literal");
        const r = s.slice(i, j);
        i = j;
        return safe ? r.slice(1, -1) : unquoteJSON(r);
      }
      case "n":
        if (s.startsWith("null", i)) {
          i += 4;
          return None;
        }
        break;
      case "t":
        if (s.startsWith("true", i)) {
          i += 4;
          return true;
        }
        break;
      case "f":
        if (s.startsWith("false", i)) {
          i += 5;
          return false;
        }
        break;
      case "[": {
        const elems: Value[] = [];
        i++;
        let c = next();
        if (c !== "]") {
          for (;;) {
            elems.push(parse());
            c = next();
            if (c !== ",") {
              if (c !== "]") failure(`got ${goQuoteByte(c)}, want ',' or ']'`);
              break;
            }
            i++;
          }
        }
        i++;
        return new List(elems);
      }
      case "{": {
        const dict = new Dict();
        i++;
        let c = next();
        if (c !== "}") {
          for (;;) {
            const key = parse();
            if (typeof key !== "string") failure(`got ${typeName(key)} for object key, want string`);
            c = next();
            if (c !== ":") failure(`after object key, got ${goQuoteByte(c)}, want ':' `);
            i++;
            const value = parse();
            dict.setKey(key, value);
            c = next();
            if (c !== ",") {
              if (c !== "}") failure(`in object, got ${goQuoteByte(c)}, want ',' or '}'`);
              break;
            }
            i++;
          }
        }
        i++;
        return dict;
      }
      default:
        if (isdigit(b) || b === "-") {
          let isFloat = false;
          let j = i + 1;
          for (; j < s.length; j++) {
            const c = s[j]!;
            if (isdigit(c)) continue;
            if (c === "." || c === "e" || c === "E" || c === "+" || c === "-") isFloat = true;
            else break;
          }
          const num = s.slice(i, j);
          i = j;
          const digits = num[0] === "-" ? num.slice(1) : num;
          if (digits === "" || (digits[0] === "0" && digits.length > 1 && isdigit(digits[1]))) {
            failure(`invalid number: ${num}`);
          }
          if (isFloat) {
            if (!/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(num)) failure(`invalid number: ${num}`);
            const f = Number(num);
            if (!Number.isFinite(f)) failure(`invalid number: ${num}`);
            return new Float(f);
          }
          if (!/^-?\d+$/.test(num)) failure(`invalid number: ${num}`);
          return num.length < 16 ? Number(num) || 0 : normBig(BigInt(num));
        }
    }
    return failure(`unexpected character ${goQuoteByte(b)}`);
  };
  try {
    const v = parse();
    if (skipSpace()) failure(`unexpected character ${goQuoteByte(s[i]!)} after value`);
    th.alloc(s.length * 2);
    return v;
  } catch (e) {
    if (e instanceof Failure) throw new DecodeFailure(`json.decode: at offset ${i}, ${e.msg}`);
    throw e;
  }
}

class DecodeFailure extends StarlarkError {}

const decodeB = new Builtin("json.decode", (th, args, kwargs, _recv, name) => {
  const [s, d] = unpackArgs(name, args, kwargs, [["x", toStr], "default?"]) as [string, Value?];
  if (args.length < 1) fail(`${name}: unexpected keyword argument x`);
  try {
    return decodeString(th, s);
  } catch (e) {
    if (e instanceof DecodeFailure && d !== undefined) return d;
    throw e;
  }
});

/** The `json` module value. */
export const jsonModule = new Module(
  "json",
  new Map<string, Value>([
    ["encode", encodeB],
    ["encode_indent", encodeIndentB],
    ["decode", decodeB],
    ["indent", indentB],
  ]),
);

/** Encodes a value as JSON (for hosts), with json.encode's rules. */
export function encodeJSON(th: Thread, v: Value): string {
  return encode(th, [v], null, "json.encode");
}
