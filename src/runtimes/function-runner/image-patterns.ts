/**
 * The operator's allow-list of images a function runner may be asked to run: patterns over the
 * fully qualified image (`ghcr.io/nephio-project/nephio/nfdeploy-fn:v3.0.0`), `*` standing for any
 * run of characters (`/` and `:` included), everything else literal. An empty list allows nothing.
 */

/** Splits a comma- or whitespace-separated list of patterns (`a/*, b/c:*`), dropping empty entries. */
export function parseImagePatterns(text: string | undefined): string[] {
  return (text ?? "")
    .split(/[\s,]+/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
}

function toRegExp(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "s");
}

/** A matcher for `patterns`: true when one of them matches the whole image. */
export function imageMatcher(patterns: readonly string[]): (image: string) => boolean {
  const compiled = patterns.map(toRegExp);
  return (image) => compiled.some((re) => re.test(image));
}
