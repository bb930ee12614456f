/**
 * Which executable an `exec:` step may name when the app renders (the CLI runs any, as kpt does: kpt's
 * `ExecFn` starts the path as written, so a relative one resolves against kpt's working directory).
 * The app renders a package read from GitHub, not from this machine's disk, and the server's working
 * directory is the app's own checkout: a relative path there would run a server file the repository
 * chose. So in the app a path with a `/` that is not absolute names a file of the package (resolved
 * against its Kptfile's directory; one that climbs out with `../` leaves the package) and is refused:
 * repository content never decides what native code the server runs. A bare name (found on the
 * server's `PATH`) or an absolute path names a program the operator installed, and runs under the
 * operator's `PORCHLIGHT_ALLOW_EXEC`.
 */
import path from "node:path";
import type { StepOrigin } from "../../engine/function-runtime.js";

/** The step's place for messages: `Kptfile sub/Kptfile pipeline.mutators[0]`, or the command alone. */
function where(origin: StepOrigin | undefined, command: string): string {
  const step = `exec ${JSON.stringify(command)}`;
  return origin ? `Kptfile ${origin.kptfile} ${origin.field}: ${step}` : step;
}

/**
 * Why the app refuses to start `file` (argv[0] of the step's `command`), or `undefined` when it may:
 * a bare name or an absolute path. The reason names the Kptfile and the step when `origin` is given.
 */
export function confinedExecutableProblem(
  file: string,
  command: string,
  origin: StepOrigin | undefined,
): string | undefined {
  if (!file.includes("/") || path.posix.isAbsolute(file)) return undefined;
  const inside = path.posix.normalize(file);
  const refused = where(origin, command);
  const advice =
    "the app runs only programs its operator installed: a command on the server's PATH or an absolute path";
  if (inside === ".." || inside.startsWith("../")) {
    return `${refused}: the path ${JSON.stringify(file)} leaves the package; ${advice}`;
  }
  return `${refused}: the path ${JSON.stringify(file)} names a file of the package, and the app does not run programs from the repository; ${advice}`;
}
