/**
 * Function image names as kpt 1.0 resolves and records them: a short name (no `/`, e.g.
 * `set-namespace:latest`) gets the image prefix (`--image-prefix`, `KPT_IMAGE_PREFIX`, default
 * `ghcr.io/kptdev/krm-functions-catalog`); a step's `tag` replaces the image's tag when it is an exact
 * version or a plain tag, and is a semver constraint otherwise (kpt resolves those against the
 * registry's tags); without a tag or digest, `:latest` is added.
 */
import { createRequire } from "node:module";

/** kpt's default function registry for short image names. */
export const DEFAULT_REGISTRY = "ghcr.io/kptdev/krm-functions-catalog";

/** kpt's `ResolveToImage`: the prefix (trailing `/` trimmed; none when empty) for names without a `/`. */
export function resolveImage(image: string, prefix: string = DEFAULT_REGISTRY): string {
  const trimmed = prefix.replace(/\/+$/, "");
  if (trimmed === "" || image.includes("/")) return image;
  return `${trimmed}/${image}`;
}

/**
 * kpt's `ValidatePrefix`: no scheme, no `?`/`#`, a host. Returns the problem in kpt's words, or
 * undefined when the prefix is valid.
 */
export function imagePrefixProblem(prefix: string): string | undefined {
  if (prefix === "") return undefined;
  const trimmed = prefix.replace(/\/+$/, "");
  if (trimmed.includes("://")) {
    return `invalid image prefix ${JSON.stringify(prefix)}: must not include a scheme (e.g. https://)`;
  }
  if (/[?#]/.test(trimmed))
    return `invalid image prefix ${JSON.stringify(prefix)}: must not contain '?' or '#'`;
  let host = "";
  try {
    host = new URL(`https://${trimmed}`).host;
  } catch {
    host = "";
  }
  if (host === "") return `invalid image prefix ${JSON.stringify(prefix)}: must be a valid registry path`;
  return undefined;
}

/** Whether the reference carries a tag or a digest (kpt's `hasTagOrDigest`). */
export function hasTagOrDigest(image: string): boolean {
  if (image.includes("@")) return true;
  return image.slice(image.lastIndexOf("/") + 1).includes(":");
}

/** The reference without tag and digest (`a/b:v1@sha256:…` -> `a/b`). */
function withoutTag(image: string): string {
  const at = image.indexOf("@");
  const ref = at < 0 ? image : image.slice(0, at);
  const slash = ref.lastIndexOf("/");
  const colon = ref.lastIndexOf(":");
  return colon > slash ? ref.slice(0, colon) : ref;
}

/** Masterminds/semver's `NewVersion` grammar (kpt's tag parser): `v` prefix and missing parts allowed. */
const VERSION =
  /^v?(0|[1-9]\d*)(\.(0|[1-9]\d*))?(\.(0|[1-9]\d*))?(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;
/** The OCI/Docker tag grammar (distribution/reference's `TagRegexp`). */
const TAG = /^[\w][\w.-]{0,127}$/;
const TAG_RULE =
  "must start with an alphanumeric character or underscore, followed by at most 127 alphanumeric characters, underscores, periods, or dashes";

let semver: typeof import("semver") | undefined;
/** node-semver, loaded when a tag is not a plain version (synchronously: it is CommonJS). */
function semverModule(): typeof import("semver") {
  semver ??= createRequire(import.meta.url)("semver") as typeof import("semver");
  return semver;
}

/** What a step's `tag` is, as kpt's tag resolution reads it. */
export type TagKind = "version" | "constraint" | "literal";

/**
 * Classifies a `tag`: an exact version, a semver constraint (`~0.2`, `0.4.1 - 0.4.3`, `>= 1.2, < 2`),
 * or a literal image tag.
 * @throws Error in kpt's words when it is none of these.
 */
export function classifyTag(tag: string): TagKind {
  if (VERSION.test(tag)) return "version";
  // Masterminds separates AND-ed comparators with commas; node-semver with spaces.
  if (semverModule().validRange(tag.replace(/,/g, " "), { loose: true }) !== null) return "constraint";
  if (TAG.test(tag)) return "literal";
  throw new Error(`\`function.tag\` ${JSON.stringify(tag)} must be a valid image tag: ${TAG_RULE}`);
}

/**
 * The image kpt 1.0 runs and records for a step (`renderStatus`, results): resolved with the prefix;
 * with an exact or literal `tag`, that tag replaces the image's; with a constraint, the image name
 * without a tag (the tag kpt would choose needs the registry); otherwise `:latest` when the image
 * has no tag or digest.
 * @throws Error (kpt's message) for a `tag` that is neither a version, a constraint nor a tag.
 */
export function statusImage(image: string, options: { tag?: string; prefix?: string } = {}): string {
  const resolved = resolveImage(image, options.prefix);
  if (options.tag) {
    const kind = classifyTag(options.tag);
    return kind === "constraint" ? withoutTag(resolved) : `${withoutTag(resolved)}:${options.tag}`;
  }
  return hasTagOrDigest(resolved) ? resolved : `${resolved}:latest`;
}

/** The fully qualified image, e.g. `set-labels` -> `ghcr.io/kptdev/krm-functions-catalog/set-labels:latest`. */
export function normalizeImage(image: string, prefix: string = DEFAULT_REGISTRY): string {
  return statusImage(image, { prefix });
}

/** The function's name: last path segment without tag or digest (`.../set-labels:v0.1` -> `set-labels`). */
export function functionName(image: string): string {
  const last = image.slice(image.lastIndexOf("/") + 1);
  return last.split("@")[0].split(":")[0];
}
