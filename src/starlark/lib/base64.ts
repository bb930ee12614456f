/**
 * The `base64` module of qri-io/starlib (`encoding/base64.star`), as kpt's `starlark` function loads it:
 * `encode(data, encoding="standard")` and `decode(data, encoding="standard")` over byte strings, with the
 * encodings of Go's encoding/base64 (`standard`, `standard_raw`, `url`, `url_raw`) and its strict decoding
 * (Go's message `illegal base64 data at input byte N`).
 */
import { toStr, unpackArgs } from "../eval/args.js";
import { Builtin, fail, Module, type Value } from "../eval/values.js";

interface Encoding {
  alphabet: string;
  padded: boolean;
}

const STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** The encodings starlib offers, by name. */
const ENCODINGS: ReadonlyMap<string, Encoding> = new Map([
  ["standard", { alphabet: STD, padded: true }],
  ["standard_raw", { alphabet: STD, padded: false }],
  ["url", { alphabet: URL, padded: true }],
  ["url_raw", { alphabet: URL, padded: false }],
]);

function selectEncoding(name: string | undefined): Encoding {
  const encoding = ENCODINGS.get(name === undefined || name === "" ? "standard" : name);
  if (!encoding) fail(`unsupported encoding format: ${name}`);
  return encoding;
}

/** Go's `Encoding.EncodeToString` of the bytes of `data` (a byte string). */
export function encodeBase64(data: string, encoding: Encoding): string {
  const a = encoding.alphabet;
  let out = "";
  let i = 0;
  for (; i + 3 <= data.length; i += 3) {
    const n = (data.charCodeAt(i) << 16) | (data.charCodeAt(i + 1) << 8) | data.charCodeAt(i + 2);
    out += a[(n >> 18) & 63]! + a[(n >> 12) & 63]! + a[(n >> 6) & 63]! + a[n & 63]!;
  }
  const rest = data.length - i;
  if (rest === 1) {
    const n = data.charCodeAt(i) << 16;
    out += a[(n >> 18) & 63]! + a[(n >> 12) & 63]!;
    if (encoding.padded) out += "==";
  } else if (rest === 2) {
    const n = (data.charCodeAt(i) << 16) | (data.charCodeAt(i + 1) << 8);
    out += a[(n >> 18) & 63]! + a[(n >> 12) & 63]! + a[(n >> 6) & 63]!;
    if (encoding.padded) out += "=";
  }
  return out;
}

/**
 * Go's `Encoding.DecodeString` (not strict: leftover bits are dropped): line breaks are skipped; a byte
 * outside the alphabet, a missing or misplaced `=` or trailing data fail with Go's
 * `illegal base64 data at input byte N` (N counts input bytes, line breaks included). Returns a byte string.
 */
export function decodeBase64(src: string, encoding: Encoding): string {
  const illegal = (at: number): never => fail(`illegal base64 data at input byte ${at}`);
  const isBreak = (c: string | undefined) => c === "\n" || c === "\r";
  let out = "";
  let si = 0;
  for (;;) {
    const quantum = [0, 0, 0, 0];
    let len = 4;
    let trailing = -1;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return out;
        if (j === 1 || encoding.padded) illegal(si - j);
        len = j;
        break;
      }
      const c = src[si]!;
      si++;
      const v = encoding.alphabet.indexOf(c);
      if (v >= 0) {
        quantum[j] = v;
        continue;
      }
      if (isBreak(c)) {
        j--;
        continue;
      }
      if (c !== "=" || !encoding.padded) illegal(si - 1);
      if (j < 2) illegal(si - 1);
      if (j === 2) {
        while (si < src.length && isBreak(src[si])) si++;
        if (si === src.length) illegal(src.length);
        if (src[si] !== "=") illegal(si - 1);
        si++;
      }
      while (si < src.length && isBreak(src[si])) si++;
      if (si < src.length) trailing = si;
      len = j;
      break;
    }
    const n = (quantum[0]! << 18) | (quantum[1]! << 12) | (quantum[2]! << 6) | quantum[3]!;
    const bytes = [(n >> 16) & 255, (n >> 8) & 255, n & 255].slice(0, len - 1);
    out += String.fromCharCode(...bytes);
    if (trailing >= 0) illegal(trailing);
    if (len < 4) return out;
  }
}

function codec(name: "encode" | "decode"): Builtin {
  return new Builtin(name, (_th, args, kwargs) => {
    const [data, encodingName] = unpackArgs(name, args, kwargs, [
      ["data", toStr],
      ["encoding?", toStr],
    ]) as [string, string | undefined];
    const encoding = selectEncoding(encodingName);
    return name === "encode" ? encodeBase64(data, encoding) : decodeBase64(data, encoding);
  });
}

/** The `base64` module value (what `load("encoding/base64.star", "base64")` binds). */
export const base64Module = new Module(
  "base64",
  new Map<string, Value>([
    ["encode", codec("encode")],
    ["decode", codec("decode")],
  ]),
);
