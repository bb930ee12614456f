/**
 * `porchlight fn <command>`, kpt's `fn` command group: `eval` (run one function), `render` (an alias
 * of `porchlight render`) and `list` (the builtin functions). Each command's module is loaded when
 * it runs, so start-up stays cheap.
 */

import { commandAt, UsageError } from "./commands.js";

/** Runs `porchlight fn ...` (argv after `fn`); resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "eval":
      return (await import("./eval-command.js")).runEval(rest);
    case "render":
      return (await import("./render-command.js")).runRender(rest, commandAt("fn render")?.usage);
    case "list":
      return (await import("./fn-list.js")).run(rest);
    default:
      // help and a bare `porchlight fn` are answered by main.ts from the registered usage
      throw new UsageError(`unknown command ${JSON.stringify(command)} for "porchlight fn"`);
  }
}
