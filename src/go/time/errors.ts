/** An error of Go's time package (`time.ParseError`, an unknown zone); its message is Go's. */
export class GoTimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GoTimeError";
  }
}

/**
 * Go's `time.quote` (the quoting in its errors): ASCII as is with `"` and `\` escaped, every byte of a control
 * character or non-ASCII rune as `\xHH`. `s` is a Go string: one char per byte (latin1 form).
 */
export function quote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 || c < 0x20) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else out += c === 0x22 || c === 0x5c ? `\\${s[i]}` : s[i];
  }
  return `${out}"`;
}

/** A JavaScript string as a Go string (its UTF-8 bytes, one char each), and back. */
export function toGoString(s: string): string {
  return Buffer.from(s, "utf8").toString("latin1");
}
export function fromGoString(s: string): string {
  return Buffer.from(s, "latin1").toString("utf8");
}
