/**
 * kpt's `internal.config.kubernetes.io/package-path` annotation during a render: the value a step
 * gives each input resource, and the package an output resource's value names.
 */

/** The package-path annotation's value for a package (`""` = the root → `.`). */
export function packagePathValue(pkg: string): string {
  return pkg === "" ? "." : pkg;
}

/**
 * The package a package-path annotation names (`.` → the root), or undefined when it is absent or
 * does not name a directory inside the root (the resource then stays where it was).
 */
export function packageOfValue(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parts: string[] = [];
  for (const part of value.trim().split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") return undefined;
    parts.push(part);
  }
  return value.trim().startsWith("/") ? undefined : parts.join("/");
}
