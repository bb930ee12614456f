/**
 * The bound on repository YAML the job's (main) thread parses itself: the default branch's Kptfiles
 * (upstream index, upgrades) and the PackageVariant files. Renders parse package content inside the
 * render workers, within their budgets; these few files are parsed on the job's thread, so each is
 * bounded: a file over the limit is not parsed, and says so where its owner looks. A Kptfile is a few
 * kilobytes; 256 KiB leaves room for thousands of annotations and keeps a parse under ~100 ms.
 */

/** Largest default-branch Kptfile or variants file parsed on the job's thread, bytes (256 KiB). */
export const MAX_MAIN_THREAD_YAML_BYTES = 256 * 1024;

/** Why `path` (of `bytes` bytes) is not parsed, or undefined when it is within the limit. */
export function mainThreadLimitProblem(path: string, bytes: number | undefined): string | undefined {
  if (bytes === undefined || bytes <= MAX_MAIN_THREAD_YAML_BYTES) return undefined;
  return `${path} is ${bytes} bytes, over the ${MAX_MAIN_THREAD_YAML_BYTES}-byte limit for files porchlight reads outside a render (default-branch Kptfiles, PackageVariant files): not read`;
}
