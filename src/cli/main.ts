/**
 * The `porchlight` command: `render` (kpt fn render over the same engine as the app), and `fn` / `rpkg` /
 * `pkg` / `protect` / `starlark` / `rego` / `completion` / `version`, whose modules are loaded on demand. Help and
 * usage errors follow kpt's conventions for every command registered in commands.ts.
 */
import { existsSync } from "node:fs";
import { type CommandSpec, resolveCommand, UsageError, unknownFlag, verbsOf, wantsHelp } from "./commands.js";
import { runRender } from "./render-command.js";
import { std } from "./std-write.js";

/** The top-level usage: the registered commands with their summaries. */
export function topUsage(): string {
  const rows: [string, string][] = [
    ...verbsOf("").map((c): [string, string] => [c.path, c.summary]),
    ["PKG_PATH [flags]", "shorthand for `render PKG_PATH [flags]` when PKG_PATH exists; with only"],
    ["", "render flags, or nothing inside a package directory, renders the current directory"],
    ["help COMMAND...", "show a command's help (also `porchlight COMMAND... --help`)"],
  ];
  const width = Math.max(...rows.map(([name]) => name.length)) + 3;
  return `Usage: porchlight <command> [args]

Commands:
${rows.map(([name, text]) => `  ${name.padEnd(width)}${text}`.trimEnd()).join("\n")}

Flags:
  -h, --help      show this help
  --version       print porchlight's version

Run \`porchlight <command> --help\` for a command's flags.
`;
}

/** Writes main's own text (help, errors) through the streams, their failures heard as `std` hears them. */
function print(fd: 1 | 2, text: string): void {
  std.hearFailures();
  (fd === 1 ? process.stdout : process.stderr).write(text);
}

interface SubcommandModule {
  run(argv: string[]): Promise<number>;
}

/**
 * The module that runs each top-level command, loaded on demand. Each is a literal `() => import("./x.js")`
 * (the CLI bundle keeps each such module in its own chunk; a computed specifier would not be bundled).
 */
const MODULES: Record<string, () => Promise<SubcommandModule>> = {
  render: async () => ({ run: runRender }),
  fn: () => import("./fn-command.js"),
  rpkg: () => import("./rpkg-get.js"),
  pkg: () => import("./pkg.js"),
  repo: () => import("./repo-command.js"),
  protect: () => import("./protect.js"),
  starlark: () => import("./starlark.js"),
  rego: () => import("./rego.js"),
  completion: () => import("./completion.js"),
  version: () => import("./version.js"),
};

async function runModule(command: string, argv: string[]): Promise<number> {
  // render, fn render and fn eval write through `std` alone and so make no stream they do not need.
  const viaStd = command === "render" || (command === "fn" && (argv[0] === "render" || argv[0] === "eval"));
  if (!viaStd) std.hearFailures();
  const load = MODULES[command];
  if (!load) throw new Error(`no module runs the \`${command}\` command`);
  let mod: SubcommandModule;
  try {
    mod = await load();
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_MODULE_NOT_FOUND") {
      print(2, `Error: the \`${command}\` command is not available in this build\n`);
      return 1;
    }
    throw err;
  }
  return mod.run(argv);
}

/** kpt's usage error: the message, a blank line, the command's usage, on stderr; exit 1. */
function usageFailure(message: string, usage: string): number {
  print(2, `Error: ${message}\n\n${usage}`);
  return 1;
}

/** Runs a registered command: help and unknown flags here, the rest in its module. */
async function runCommand(argv: string[], spec: CommandSpec, rest: string[]): Promise<number> {
  if (wantsHelp(rest)) {
    print(1, spec.usage);
    return 0;
  }
  if (rest.length === 0 && verbsOf(spec.path).length > 0) {
    print(1, spec.usage); // a group without a verb: its help, as cobra does
    return 0;
  }
  const flag = unknownFlag(spec, rest);
  if (flag !== undefined) return usageFailure(`unknown flag: ${flag}`, spec.usage);
  try {
    return await runModule(argv[0] ?? "", argv.slice(1));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    const usage = (err.path !== undefined && resolveCommand(err.path.split(" "))?.spec.usage) || spec.usage;
    return usageFailure(err.message, usage);
  }
}

/** `porchlight help [COMMAND...]`. */
function runHelp(words: string[]): number {
  if (words.length === 0) {
    print(1, topUsage());
    return 0;
  }
  const found = resolveCommand(words);
  if (!found || found.rest.length > 0) {
    return usageFailure(`unknown command ${JSON.stringify(words.join(" "))}`, topUsage());
  }
  print(1, found.spec.usage);
  return 0;
}

/** Runs the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    const found = resolveCommand(argv);
    if (found) return await runCommand(argv, found.spec, found.rest);
    switch (command) {
      case undefined:
        // Inside a package, a bare `porchlight` renders it (so `porchlight` can stand in for `kpt fn render`).
        if (existsSync("Kptfile")) return await runRender([]);
        print(1, topUsage());
        return 0;
      case "--version":
        return await runModule("version", rest);
      case "-h":
      case "--help":
        print(1, topUsage());
        return 0;
      case "help":
        return runHelp(rest);
      default:
        // `porchlight <existing path> [flags]` is `porchlight render <path> [flags]`.
        if (existsSync(command) || command.startsWith("-")) return await runRender(argv);
        return usageFailure(`unknown command ${JSON.stringify(command)} for "porchlight"`, topUsage());
    }
  } catch (err) {
    print(2, `Error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
