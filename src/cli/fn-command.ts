/**
 * `porchlight fn <command>`, kpt's `fn` command group: `eval` (run one function), `render` (an alias
 * of `porchlight render`) and `list` (the builtin functions). Each command's module is loaded when
 * it runs, so start-up stays cheap.
 */

const USAGE = `Usage: porchlight fn <command> [args]

Commands:
  eval [PKG_PATH|-]   run one function on a package, like \`kpt fn eval\` (see \`porchlight fn eval --help\`)
  render [PKG_PATH]   render a package, like \`kpt fn render\` (same as \`porchlight render\`)
  list                list the builtin functions with the catalog versions they follow
`;

/** Runs `porchlight fn ...` (argv after `fn`); resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "eval":
      return (await import("./eval-command.js")).runEval(rest);
    case "render":
      return (await import("./render-command.js")).runRender(rest);
    case "list":
      return (await import("./fn-list.js")).run(rest);
    case undefined:
    case "-h":
    case "--help":
    case "help":
      process.stdout.write(USAGE);
      return command === undefined ? 1 : 0;
    default:
      process.stderr.write(
        `Error: unknown command ${JSON.stringify(command)} for "porchlight fn"\n\n${USAGE}`,
      );
      return 1;
  }
}
