/**
 * Go's `time` package as the interpreters need it (Starlark's `time` module, Rego's `time.*` builtins):
 * layouts, formatting, parsing, civil dates and IANA zones. Strings are Go strings (one char per byte).
 */
export { DAYS, daysFromCivil, floorDiv } from "./civil.js";
export { DurationSyntaxError, parseDuration, scanDuration } from "./duration.js";
export { fromGoString, GoTimeError, quote, toGoString } from "./errors.js";
export { type Fields, fieldsAt } from "./fields.js";
export { formatLayout } from "./format.js";
export { NAMED_LAYOUTS } from "./layout.js";
export { parseLayout } from "./parse.js";
export { loadLocation, UTC, utcOfLocal, type Zone } from "./zone.js";
