/** Usage texts of `porchlight repo` (porchctl's `repo` commands, over GitHub). */
export const REPO_USAGES = [
  {
    path: "repo",
    summary: "repositories the token reaches, with their role (porchctl repo)",
    usage: `Usage: porchlight repo <command> [args]

The GitHub repositories porchlight works in, as \`porchctl repo\` shows Porch's registered
repositories. There is nothing to register: a repository is one when the token (or the app's
installation) reaches it.

Commands:
  get   list the repositories the token reaches, with their role (deployment or blueprint)

Flags:
  -h, --help   show this help
`,
  },
  {
    path: "repo get",
    summary: "list the repositories the token reaches, with their role (deployment or blueprint)",
    usage: `Usage: porchlight repo get [REPOSITORY...] [flags]

List the repositories the token reaches (an installation token's, else a user token's), like
\`porchctl repo get\`: NAME (owner/repo), TYPE, CONTENT, DEPLOYMENT (true when its
.github/porchlight.yml says \`deployment: true\`; else a blueprint repository), READY (False when its
configuration does not read; the reason goes to stderr) and ADDRESS. Given REPOSITORY names (repo or
owner/repo), only those.

Flags:
  -o, --output F      table (default) or yaml (Porch Repository objects)
  -n, --namespace N   accepted for porchctl compatibility
  -h, --help          show this help

Examples:
  porchlight repo get
  porchlight repo get acme/deployments -o yaml
`,
  },
] as const;
