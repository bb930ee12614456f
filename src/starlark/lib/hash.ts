/**
 * The `hash` module of qri-io/starlib (`hash.star`), as kpt's `starlark` function loads it: `md5(s)`,
 * `sha1(s)` and `sha256(s)` return the lowercase hex digest of the bytes of the string `s`.
 */
import { createHash } from "node:crypto";
import { toStr, unpackPositional } from "../eval/args.js";
import { Builtin, Module, type Value } from "../eval/values.js";

function digest(algorithm: "md5" | "sha1" | "sha256"): Builtin {
  const name = `hash.${algorithm}`;
  return new Builtin(name, (_th, args, kwargs) => {
    const [s] = unpackPositional(name, args, kwargs, 1, [toStr]) as [string];
    return createHash(algorithm).update(Buffer.from(s, "latin1")).digest("hex");
  });
}

/** The `hash` module value (what `load("hash.star", "hash")` binds). */
export const hashModule = new Module(
  "hash",
  new Map<string, Value>([
    ["md5", digest("md5")],
    ["sha1", digest("sha1")],
    ["sha256", digest("sha256")],
  ]),
);
