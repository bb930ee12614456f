/**
 * Which executable an `exec:` step may start when the app renders, and how (the CLI runs any, as kpt does:
 * kpt's `ExecFn` starts the path as written, so a relative one resolves against kpt's working directory).
 * The app renders a package read from GitHub, not from this machine's disk, and the server's working
 * directory is the app's own checkout. So in the app:
 * - a path with a `/` that is not absolute names a file of the package and is refused (one that climbs out
 *   with `../` leaves the package);
 * - a bare name is looked up on `PATH` without the entries inside the app's own directories and npm's
 *   `node_modules/.bin` ones and an absolute path is taken as written; either is refused when it resolves
 *   into the app's directories or into `/proc`, `/dev` or `/sys` (`/proc/self/cwd/...` is the server's checkout);
 * - when the operator lists programs (`PORCHLIGHT_EXEC_PROGRAMS=kubeconform,/opt/fn/x`), argv[0] must be one of them;
 * - the function starts in an empty directory of its own, never the server's, and as the operator's
 *   `PORCHLIGHT_EXEC_USER` when set.
 * Repository content never decides what native code the server runs beyond what the operator allowed.
 */
import { accessSync, constants, existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { StepOrigin } from "../../engine/function-runtime.js";

/** The operator's limits on `exec:` functions in the app (kpt has no such thing: its user is the operator). */
export interface ExecConfinement {
  /** The only argv[0] values allowed (bare names or absolute paths, as written); absent: any program installed. */
  programs?: readonly string[];
  /** Run functions as this user and group (numeric ids; needs a server started as root). */
  runAs?: { uid: number; gid: number };
}

/** The step's place for messages: `Kptfile sub/Kptfile pipeline.mutators[0]`, or the command alone. */
function where(origin: StepOrigin | undefined, command: string): string {
  const step = `exec ${JSON.stringify(command)}`;
  return origin ? `Kptfile ${origin.kptfile} ${origin.field}: ${step}` : step;
}

const ADVICE =
  "the app runs only programs its operator installed: a command on the server's PATH or an absolute path";
const SYSTEM = ["/proc", "/dev", "/sys"];

let ownDirs: string[] | undefined;
/** The app's own directories: its installation (nearest `package.json` above this module) and its cwd. */
export function appDirectories(): string[] {
  if (ownDirs) return ownDirs;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  const dirs = [dir, process.cwd()].map((d) => safeRealpath(d) ?? d).filter((d) => d !== "/");
  ownDirs = [...new Set(dirs)];
  return ownDirs;
}

function safeRealpath(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

const inside = (file: string, dir: string) =>
  file === dir || file.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
const forbidden = (file: string, dirs: readonly string[]) =>
  SYSTEM.some((d) => inside(file, d)) || dirs.some((d) => inside(file, d));

/**
 * `PATH` without relative entries, entries inside `dirs` (the app's), npm's `node_modules` additions (npm
 * puts every ancestor's `node_modules/.bin` there) and system pseudo-filesystems.
 */
export function confinedPath(
  pathEnv: string | undefined,
  dirs: readonly string[] = appDirectories(),
): string {
  return (pathEnv ?? "")
    .split(path.delimiter)
    .filter(
      (entry) =>
        path.isAbsolute(entry) &&
        !entry.split("/").includes("node_modules") &&
        !forbidden(safeRealpath(entry) ?? entry, dirs),
    )
    .join(path.delimiter);
}

function lookup(name: string, pathEnv: string): string | undefined {
  for (const dir of pathEnv.split(path.delimiter)) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** What the app starts for one step: the resolved program, or why it refuses. */
export type ConfinedProgram = { program: string } | { problem: string };

/**
 * Decides whether the app may start `file` (argv[0] of the step's `command`) and resolves it: a bare name on
 * `pathEnv` (already {@link confinedPath}), an absolute path through its symlinks. `program` is the file to
 * start (unresolvable names are passed on, so spawning reports them as not found); `problem` names the
 * Kptfile and step when `origin` is given. Never throws.
 */
export function confineExecutable(
  file: string,
  command: string,
  origin: StepOrigin | undefined,
  policy: ExecConfinement = {},
  pathEnv = "",
  dirs: readonly string[] = appDirectories(),
): ConfinedProgram {
  const refused = where(origin, command);
  if (file.includes("/") && !path.posix.isAbsolute(file)) {
    const normal = path.posix.normalize(file);
    if (normal === ".." || normal.startsWith("../")) {
      return { problem: `${refused}: the path ${JSON.stringify(file)} leaves the package; ${ADVICE}` };
    }
    return {
      problem: `${refused}: the path ${JSON.stringify(file)} names a file of the package, and the app does not run programs from the repository; ${ADVICE}`,
    };
  }
  if (policy.programs && !policy.programs.includes(file)) {
    return {
      problem: `${refused}: ${JSON.stringify(file)} is not one of the programs the operator allows (PORCHLIGHT_EXEC_PROGRAMS=${policy.programs.join(",")})`,
    };
  }
  const found = path.posix.isAbsolute(file) ? file : lookup(file, pathEnv);
  if (found === undefined) return { program: file };
  const real = safeRealpath(found) ?? path.resolve(found);
  if (forbidden(path.resolve(file.startsWith("/") ? file : found), dirs) || forbidden(real, dirs)) {
    return {
      problem: `${refused}: ${JSON.stringify(file)} resolves into the app's own files or into /proc, /dev or /sys, which the app never runs; ${ADVICE}`,
    };
  }
  return { program: real };
}
