/** Usage texts of `protect`, `starlark`, `completion` and `version`. */
export const OTHER_USAGES = [
  {
    path: "protect",
    summary: "require the porchlight/render check on a repository's default branch (a ruleset)",
    usage: `Usage: porchlight protect OWNER/REPO [flags]

Create (or update) the repository ruleset "porchlight: require porchlight/render" on the default
branch: only a porchlight/render check run from this GitHub App satisfies it, so a package revision
can be approved (merged) only when it renders cleanly. GITHUB_TOKEN must be allowed to administer the
repository (GITHUB_API_URL for GitHub Enterprise Server).

Flags:
  --app-id ID              porchlight's GitHub App id (default $APP_ID)
  --require-pull-request   also require a pull request for every change to the default branch
  --evaluate               create the ruleset in evaluate mode (GitHub Enterprise) to try it first
  -h, --help               show this help

Examples:
  GITHUB_TOKEN=... porchlight protect acme/packages --app-id 123456
`,
  },
  {
    path: "starlark",
    summary: "run go.starlark.net test files, or a Starlark script",
    usage: `Usage: porchlight starlark <command> [args]

Commands:
  test FILE...   run go.starlark.net chunked test files (starlark/, starlarkstruct/ executed,
                 syntax/testdata parsed, resolve/testdata resolved); prints one line per file
                 and "N passed, M failed" (chunks)
  run FILE       run a Starlark script (dialect of kpt's starlark function: set, global
                 reassignment, recursion); print() goes to stdout; exit 1 on error

Flags:
  -h, --help   show this help
`,
  },
  {
    path: "starlark test",
    summary: "run go.starlark.net chunked test files",
    usage: `Usage: porchlight starlark test FILE... [flags]

Run go.starlark.net chunked test files (starlark/, starlarkstruct/ executed, syntax/testdata parsed,
resolve/testdata resolved); prints one line per file and "N passed, M failed" (chunks); exit 1 when
a chunk fails.

Flags:
  -v, --verbose   print every chunk
  -h, --help      show this help
`,
  },
  {
    path: "starlark run",
    summary: "run a Starlark script",
    usage: `Usage: porchlight starlark run FILE [flags]

Run a Starlark script in the dialect of kpt's starlark function (set, global reassignment,
recursion); print() goes to stdout; exit 1 on error.

Flags:
  -h, --help   show this help
`,
  },
  {
    path: "rego",
    summary: "run Rego test-case files, or evaluate a Rego query",
    usage: `Usage: porchlight rego <command> [args]

Commands:
  test [-v] FILE...                  run Rego test-case files (OPA/regorus YAML cases); prints one line
                                     per failing case (-v: every case) and "N passed, M failed"
  eval [-v1] -d FILE... [-i INPUT] QUERY
                                     evaluate QUERY against Rego modules (-d, repeatable) and a JSON/YAML
                                     input document; prints the results as JSON; exit 1 on error

Flags:
  -h, --help   show this help
`,
  },
  {
    path: "rego test",
    summary: "run Rego test-case files (OPA/regorus YAML cases)",
    usage: `Usage: porchlight rego test FILE... [flags]

Run Rego test-case files in the YAML format of OPA/regorus's interpreter cases: one line per failing
case, then "N passed, M failed" (skipped cases counted apart); exit 1 when a case fails.

Flags:
  -v, --verbose   print every case
  -h, --help      show this help
`,
  },
  {
    path: "rego eval",
    summary: "evaluate a Rego query against modules and an input document",
    usage: `Usage: porchlight rego eval -d FILE.rego... [-i INPUT] [--v1] QUERY

Evaluate QUERY against the Rego modules given with -d (repeatable) and a JSON/YAML input document;
print the results as JSON; exit 1 on error.

Flags:
  -d, --data FILE    a Rego module (repeatable)
  -i, --input FILE   the input document
  --v1               Rego v1 syntax (also -v1)
  -h, --help         show this help
`,
  },
  {
    path: "completion",
    summary: "print a shell completion script (bash, zsh or fish)",
    usage: `Usage: porchlight completion bash|zsh|fish

Print a script that completes porchlight's commands, verbs and flags in the given shell.

Flags:
  -h, --help   show this help

Examples:
  source <(porchlight completion bash)                                # this bash session
  porchlight completion bash > /etc/bash_completion.d/porchlight      # every bash session
  porchlight completion zsh > "\${fpath[1]}/_porchlight"               # zsh (compinit)
  porchlight completion fish > ~/.config/fish/completions/porchlight.fish
`,
  },
  {
    path: "version",
    summary: "print porchlight's version",
    usage: `Usage: porchlight version

Print porchlight's version (also \`porchlight --version\`).

Flags:
  -h, --help   show this help
`,
  },
] as const;
