/**
 * Every command and verb of the `porchlight` CLI with its help text, as kpt's cobra commands carry
 * theirs: `porchlight <path> --help` (or `-h`, or `porchlight help <path>`) prints the usage to stdout
 * and exits 0 before the command runs; a usage error exits 1 with `Error: <message>`, a blank line and
 * the usage on stderr (see {@link UsageError}). `porchlight completion` and test/cli/conventions.test.ts
 * walk this list, so a command registered here has help, completion and the convention tests.
 * This module stays light (no engine, no GitHub client): main.ts reads it on every run.
 */
import { EVAL_USAGE } from "./eval-args.js";
import { RENDER_USAGE } from "./render-args.js";
import { FN_USAGES } from "./usage/fn.js";
import { OTHER_USAGES } from "./usage/other.js";
import { PKG_USAGES } from "./usage/pkg.js";
import { REPO_USAGES } from "./usage/repo.js";
import { RPKG_USAGES } from "./usage/rpkg.js";

/** One command or verb: its words after `porchlight`, a one-line summary and its full usage text. */
export interface CommandSpec {
  /** e.g. `"rpkg get"`; a group (`"rpkg"`) dispatches to the verbs registered under it */
  readonly path: string;
  /** one line, shown in the parent's list and in shell completion */
  readonly summary: string;
  /** the text `--help` prints: starts `Usage: porchlight <path>`, ends with a newline */
  readonly usage: string;
}

/**
 * A command-line mistake (unknown flag, missing or extra argument, bad value): main.ts prints
 * `Error: <message>`, a blank line and the usage of the command being run to stderr, and exits 1 (kpt's
 * convention). Throw it from a command's `run`; `path` names the command when it is not the one
 * main.ts resolved (a verb dispatched by its group's module).
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

/** The registered commands, parents before their verbs. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    path: "render",
    summary: "render a package in place, like `kpt fn render`",
    usage: RENDER_USAGE,
  },
  ...FN_USAGES,
  { path: "fn eval", summary: "run one function on a package, like `kpt fn eval`", usage: EVAL_USAGE },
  ...RPKG_USAGES,
  ...PKG_USAGES,
  ...REPO_USAGES,
  ...OTHER_USAGES,
];

/** The spec registered at `path`, if any. */
export function commandAt(path: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.path === path);
}

/** The verbs registered directly under `path` ("" for the top level). */
export function verbsOf(path: string): CommandSpec[] {
  const depth = path === "" ? 1 : path.split(" ").length + 1;
  return COMMANDS.filter(
    (c) => c.path.split(" ").length === depth && (path === "" || c.path.startsWith(`${path} `)),
  );
}

/**
 * The deepest registered command that `argv` starts with, and the arguments after its words; undefined
 * when the first word is no command (main.ts then treats it as a package path).
 */
export function resolveCommand(argv: readonly string[]): { spec: CommandSpec; rest: string[] } | undefined {
  let found: { spec: CommandSpec; rest: string[] } | undefined;
  for (let n = 1; n <= argv.length; n++) {
    const spec = commandAt(argv.slice(0, n).join(" "));
    if (!spec) break;
    found = { spec, rest: argv.slice(n) };
  }
  return found;
}

/** True when the arguments ask for help: `-h` or `--help` before a `--` (kpt's `--help`, `-h`). */
export function wantsHelp(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === "--") return false;
    if (a === "-h" || a === "--help" || a === "--help=true") return true;
  }
  return false;
}

/** The flags a usage text lists: every `-x` / `--flag` on the lines that start with spaces and a dash. */
export function flagsOf(usage: string): string[] {
  const flags: string[] = [];
  for (const line of usage.split("\n")) {
    if (!/^ +-/.test(line)) continue;
    for (const m of line.matchAll(/(?<![\w-])(--[a-z][a-z0-9-]*|-[A-Za-z])(?![\w-])/g))
      flags.push(m[1] ?? "");
  }
  return [...new Set(flags)];
}

/**
 * Commands that parse and check their own flags with kpt's flag rules (their own unknown-flag errors);
 * for the others main.ts refuses a flag their usage does not list.
 */
export const OWN_FLAG_PARSERS: ReadonlySet<string> = new Set(["render", "fn render", "fn eval"]);

/** The first argument (before `--`) that looks like a flag and is not one `spec` lists, if any. */
export function unknownFlag(spec: CommandSpec, args: readonly string[]): string | undefined {
  if (OWN_FLAG_PARSERS.has(spec.path)) return undefined;
  // a group given a word it has no verb for: its own module says "unknown command" (or runs a verb
  // not registered yet)
  if (verbsOf(spec.path).length > 0 && args[0] !== undefined && !args[0].startsWith("-")) return undefined;
  const known = new Set(flagsOf(spec.usage));
  for (const a of args) {
    if (a === "--") return undefined;
    const flag = /^(--[^=]+|-[A-Za-z])(=.*)?$/.exec(a)?.[1];
    if (flag !== undefined && !known.has(flag)) return flag;
  }
  return undefined;
}
