/** Usage texts of `porchlight fn` and its verbs (`fn eval`'s lives in eval-args.ts, with its parser). */
import { RENDER_USAGE } from "../render-args.js";

export const FN_USAGES = [
  {
    path: "fn",
    summary: "kpt's fn commands: run one function, render, list the builtins",
    usage: `Usage: porchlight fn <command> [args]

Commands:
  eval [PKG_PATH|-]   run one function on a package, like \`kpt fn eval\` (see \`porchlight fn eval --help\`)
  render [PKG_PATH]   render a package, like \`kpt fn render\` (same as \`porchlight render\`)
  list                list the builtin functions with the catalog versions they follow

Flags:
  -h, --help   show this help
`,
  },
  {
    path: "fn render",
    summary: "render a package in place (same as `porchlight render`)",
    usage: RENDER_USAGE.replace("Usage: porchlight render", "Usage: porchlight fn render"),
  },
  {
    path: "fn list",
    summary: "list the builtin functions with the catalog versions they follow",
    usage: `Usage: porchlight fn list [flags]

List the functions porchlight runs in process (its builtins): the catalog image each stands for and
the catalog version whose behaviour it follows.

Flags:
  -o, --output json   print a JSON list instead of a table
  -h, --help          show this help

Examples:
  porchlight fn list
  porchlight fn list -o json
`,
  },
] as const;
