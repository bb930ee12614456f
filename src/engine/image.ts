/**
 * Function image names as kpt reports them: short names (`set-namespace:latest`, `set-labels`) get
 * the default registry `ghcr.io/kptdev/krm-functions-catalog/`, and images without a tag or digest
 * get `:latest`.
 */

/** kpt's default function registry for short image names. */
export const DEFAULT_REGISTRY = "ghcr.io/kptdev/krm-functions-catalog";

/** The fully qualified image, e.g. `set-labels` -> `ghcr.io/kptdev/krm-functions-catalog/set-labels:latest`. */
export function normalizeImage(image: string): string {
  let full = image.includes("/") ? image : `${DEFAULT_REGISTRY}/${image}`;
  const lastSegment = full.slice(full.lastIndexOf("/") + 1);
  if (!lastSegment.includes(":") && !full.includes("@")) full += ":latest";
  return full;
}

/** The function's name: last path segment without tag or digest (`.../set-labels:v0.1` -> `set-labels`). */
export function functionName(image: string): string {
  const last = image.slice(image.lastIndexOf("/") + 1);
  return last.split("@")[0].split(":")[0];
}
