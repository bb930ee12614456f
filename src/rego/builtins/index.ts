/**
 * OPA's built-in functions. A builtin gets ground argument values and returns a value, `undefined` (no
 * result) or throws BuiltinError (an argument of the wrong type, bad input), which is an error in strict
 * mode and undefined otherwise, as in OPA.
 */
import "./numbers.js";
import "./core.js";
import "./strings.js";
import "./sprintf.js";
import "./regex.js";
import "./glob.js";
import "./encoding.js";
import "./json-docs.js";
import "./time.js";
import "./misc.js";

export { walkPairs } from "./core.js";
export { BUILTINS, type Builtin, type BuiltinCtx } from "./registry.js";
