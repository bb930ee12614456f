/**
 * The `porchlight` command: `render` (kpt fn render over the same engine as the app), and `rpkg` /
 * `protect` / `starlark`, whose modules are loaded on demand.
 */
import { existsSync } from "node:fs";
import { runRender } from "./render-command.js";

const USAGE = `Usage: porchlight <command> [args]

Commands:
  render [PKG_PATH]   render a package in place, like \`kpt fn render\` (see \`porchlight render --help\`)
  fn eval|render|list kpt's fn commands: run one function (\`fn eval\`), render, list the builtins
  PKG_PATH [flags]    shorthand for \`render PKG_PATH [flags]\` when PKG_PATH exists; with only
                      render flags, or nothing inside a package directory, renders the current directory
  rpkg ...            package revision commands
  pkg get|update ...  fetch a package from upstream, update it to a new upstream revision (kpt pkg)
  protect ...         branch protection helpers
  starlark test|run   run go.starlark.net test files, or a Starlark script (see \`porchlight starlark help\`)
  rego test|eval      run Rego test-case files, or evaluate a Rego query (see \`porchlight rego help\`)
  version, --version  print porchlight's version
`;

interface SubcommandModule {
  run(argv: string[]): Promise<number>;
}

/**
 * Runs a subcommand whose module is loaded on demand. `load` is a literal `() => import("./x.js")`
 * (the CLI bundle keeps each such module in its own chunk; a computed specifier would not be bundled).
 */
async function runModule(
  load: () => Promise<SubcommandModule>,
  command: string,
  argv: string[],
): Promise<number> {
  let mod: SubcommandModule;
  try {
    mod = await load();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "ERR_MODULE_NOT_FOUND") {
      process.stderr.write(`Error: the \`${command}\` command is not available in this build\n`);
      return 1;
    }
    throw err;
  }
  return mod.run(argv);
}

/** Runs the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "render":
        return await runRender(rest);
      case "fn":
        return await runModule(() => import("./fn-command.js"), "fn", rest);
      case "rpkg":
        return await runModule(() => import("./rpkg-get.js"), "rpkg", rest);
      case "pkg":
        return await runModule(() => import("./pkg.js"), "pkg", rest);
      case "protect":
        return await runModule(() => import("./protect.js"), "protect", rest);
      case "starlark":
        return await runModule(() => import("./starlark.js"), "starlark", rest);
      case "rego":
        return await runModule(() => import("./rego.js"), "rego", rest);
      case undefined:
        // Inside a package, a bare `porchlight` renders it (so `porchlight` can stand in for `kpt fn render`).
        if (existsSync("Kptfile")) return await runRender([]);
        process.stdout.write(USAGE);
        return 1;
      case "--version":
      case "version":
        return await runModule(() => import("./version.js"), "version", rest);
      case "-h":
      case "--help":
      case "help":
        process.stdout.write(USAGE);
        return 0;
      default:
        // `porchlight <existing path> [flags]` is `porchlight render <path> [flags]`.
        if (existsSync(command) || command.startsWith("-")) return await runRender(argv);
        process.stderr.write(`Error: unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
        return 1;
    }
  } catch (err) {
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
