// Why a rendered file differs from kpt's, when the difference is one porchlight makes on purpose:
//   - "Kptfile status": porchlight writes the rendered status (status.conditions, renderStatus) as kpt
//     does since v1.0.0-beta.67; the kpt installed here (1.0.0-beta.56) writes none;
//   - "attribution": kpt 1.0 records `krm-fn` in cnrm.cloud.google.com/blueprint, kpt before
//     1.0.0-beta.59 (this one) records `kpt-fn`, or nothing when the value has a `kpt-` part already;
//   - "licence header": a comment block above a file's first `---` is kept, where kpt drops it (README);
//   - "Kptfile struct form": writing the status, kpt since v1.0.0-beta.67 re-serialises the whole Kptfile
//     from its typed struct (kptfileutil.WriteFile: field order name/namespace/labels/annotations, map keys
//     sorted, comments dropped, wide sequences); beta.56, writing no status, leaves the text as it was.
// A file is deliberate when undoing those differences makes the two outputs equal; anything else is
// unexplained and listed by name.

import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist/src/kptfile");
/** The built Kptfile reader and writer (undefined before `npm run build`). */
const kptfileLayer = existsSync(path.join(dist, "write.js"))
  ? {
      ...(await import(pathToFileURL(path.join(dist, "read.js")).href)),
      ...(await import(pathToFileURL(path.join(dist, "write.js")).href)),
      ...(await import(pathToFileURL(path.join(dist, "go-marshal.js")).href)),
    }
  : undefined;

/** kpt's Kptfile text re-serialised from the typed struct without a status, or undefined. */
function structForm(text) {
  if (!kptfileLayer) return undefined;
  try {
    const { kptfile } = kptfileLayer.readKptfile("Kptfile", text);
    return kptfileLayer.goMarshal(kptfileLayer.kptfileObject(kptfile, undefined));
  } catch {
    return undefined;
  }
}

const BLUEPRINT = /^(\s*cnrm\.cloud\.google\.com\/blueprint: )(.*)$/gm;

/**
 * The blueprint annotation without the part `kpt fn render` records: kpt 1.0 appends `krm-fn` to a
 * value without `krm-` (also to `kpt-pkg-fn-live`); kpt before beta.59 appends `kpt-fn` to a value
 * without `kpt-`. What is left is the value both read.
 */
function withoutAttribution(text) {
  return text.replace(
    BLUEPRINT,
    (_, key, value) =>
      key + value.replace(/(^['"]?|,)(krm|kpt)-fn(?=['"]?$|,)/g, (_m, lead) => (lead === "," ? "" : lead)),
  );
}

/** A Kptfile's text without its top-level `status:` block. */
function withoutStatus(text) {
  return text.replace(/^status:[^\n]*\n(?:[ \t][^\n]*\n)*/m, "");
}

/**
 * The comment block above the source file's first `---` (lines starting with `#`, blank lines between
 * them), or "" when the file does not start with one.
 */
function licenceHeader(source) {
  const lines = source.split("\n");
  let i = 0;
  while (i < lines.length && (lines[i].startsWith("#") || lines[i].trim() === "")) i++;
  if (i === 0 || i >= lines.length || !/^---\s*$/.test(lines[i])) return "";
  const header = lines.slice(0, i);
  while (header.length > 0 && header[header.length - 1].trim() === "") header.pop();
  return header.length === 0 ? "" : `${header.join("\n")}\n`;
}

/** `ours` without the source's licence header (and the blank line after it), or undefined. */
function withoutHeader(ours, source) {
  const header = source === undefined ? "" : licenceHeader(source);
  if (header === "" || !ours.startsWith(header)) return undefined;
  const rest = ours.slice(header.length);
  return rest.startsWith("\n") ? rest.slice(1) : rest;
}

/**
 * The deliberate differences that explain why `ours` (porchlight's output) differs from `kpt`'s for
 * `file`, given the file's text before the render (`source`, undefined for a new file): a list of
 * reasons, or undefined when the difference is not explained by them.
 */
export function deliberateReasons(file, ours, kpt, source) {
  if (ours === undefined || kpt === undefined) return undefined;
  const reasons = [];
  let a = ours;
  let b = kpt;
  const isKptfile = file === "Kptfile" || file.endsWith("/Kptfile");
  if (isKptfile && withoutStatus(a) !== a && withoutStatus(a) === withoutStatus(b)) {
    return ["Kptfile status (kpt 1.0.0-beta.56 writes none)"];
  }
  if (isKptfile && withoutStatus(a) !== a && withoutStatus(b) === b && withoutStatus(a) === structForm(b)) {
    return [
      "Kptfile status, the Kptfile written from kpt's struct (kpt 1.0.0-beta.67; beta.56 writes no status)",
    ];
  }
  if (a !== b && withoutAttribution(a) !== a) {
    a = withoutAttribution(a);
    b = withoutAttribution(b);
    reasons.push("attribution krm-fn (kpt before beta.59: kpt-fn, or nothing after kpt-pkg-fn-live)");
  }
  if (a !== b) {
    const stripped = withoutHeader(a, source);
    if (stripped !== undefined) {
      a = stripped;
      reasons.push("licence header above the first --- kept");
    }
  }
  return a === b && reasons.length > 0 ? reasons : undefined;
}
