/** `no-op` (krm-functions-catalog): returns its input unchanged, with no results. */
import type { BuiltinFunction } from "./builtin-function.js";

/** The builtin `no-op`. */
export const noOp: BuiltinFunction = {
  name: "no-op",
  catalogVersion: "latest",
  run(input) {
    return { items: input.items, results: [] };
  },
};
