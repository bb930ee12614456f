/**
 * UTF-8 validation worded like Go's yaml.v3 reader (which kpt's kyaml uses): a YAML file that is
 * not valid UTF-8 is a `MalformedYAMLError` in kpt, never silently re-encoded.
 */
import { isUtf8 } from "node:buffer";

/**
 * The first UTF-8 problem of `bytes` in yaml.v3's words (`invalid leading UTF-8 octet`,
 * `incomplete UTF-8 octet sequence`, `invalid trailing UTF-8 octet`, `invalid length of a UTF-8
 * sequence`, `invalid Unicode character`), or undefined when the bytes are valid UTF-8.
 */
export function utf8Problem(bytes: Uint8Array): string | undefined {
  // Node's validator (the same rules: shortest form, no surrogates, at most U+10FFFF) decides the
  // common case; the loop below only words the problem.
  if (isUtf8(bytes)) return undefined;
  let pos = 0;
  while (pos < bytes.length) {
    const octet = bytes[pos];
    const width =
      (octet & 0x80) === 0
        ? 1
        : (octet & 0xe0) === 0xc0
          ? 2
          : (octet & 0xf0) === 0xe0
            ? 3
            : (octet & 0xf8) === 0xf0
              ? 4
              : 0;
    if (width === 0) return "invalid leading UTF-8 octet";
    if (width > bytes.length - pos) return "incomplete UTF-8 octet sequence";
    let value = width === 1 ? octet : width === 2 ? octet & 0x1f : width === 3 ? octet & 0x0f : octet & 0x07;
    for (let k = 1; k < width; k++) {
      const next = bytes[pos + k];
      if ((next & 0xc0) !== 0x80) return "invalid trailing UTF-8 octet";
      value = (value << 6) + (next & 0x3f);
    }
    const shortest =
      width === 1 ||
      (width === 2 && value >= 0x80) ||
      (width === 3 && value >= 0x800) ||
      (width === 4 && value >= 0x10000);
    if (!shortest) return "invalid length of a UTF-8 sequence";
    if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) return "invalid Unicode character";
    pos += width;
  }
  return undefined;
}
