/**
 * Byte comparison of file contents (what a write would change), native: a JavaScript loop over the
 * bytes runs interpreted in a short-lived CLI process and costs more than the render it follows.
 */

/** Whether `a` and `b` hold the same bytes; false when either is absent. */
export function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (!a || !b || a.byteLength !== b.byteLength) return false;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
}
