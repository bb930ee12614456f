/** Usage texts of `porchlight pkg` and its verbs (kpt's `pkg` commands). */
export const PKG_USAGES = [
  {
    path: "pkg",
    summary: "fetch a package from upstream, update it to a new upstream revision (kpt pkg)",
    usage: `Usage: porchlight pkg <command> [args]

Commands:
  get REPO_URI[.git]/PKG_PATH[@VERSION] [DIR]   fetch a package from a git repository, like \`kpt pkg get\`
  update [PKG_PATH][@VERSION]                   update a package to a new upstream revision, like \`kpt pkg update\`
  init [DIR]                                    create a new package's files, like \`kpt pkg init\`

Flags:
  -h, --help   show this help
`,
  },
  {
    path: "pkg get",
    summary: "fetch a package from a git repository, like `kpt pkg get`",
    usage: `Usage: porchlight pkg get REPO_URI[.git]/PKG_PATH[@VERSION] [LOCAL_DEST_DIRECTORY] [flags]

Fetch a package from a git repository into LOCAL_DEST_DIRECTORY (default: the package's name in the
current directory) and record its upstream and upstreamLock in the Kptfile, like \`kpt pkg get\`.
VERSION is a tag, branch or commit (default: the repository's default branch).

Flags:
  --strategy S       update strategy recorded in the Kptfile: resource-merge (default), fast-forward,
                     force-delete-replace, copy-merge
  --for-deployment   customize the package for deployment: generate package-context.yaml (ConfigMap
                     kptfile.kpt.dev, data.name = the new package's name), as kpt does
  -h, --help         show this help

Examples:
  porchlight pkg get https://github.com/kptdev/kpt.git/package-examples/wordpress@v0.9 wordpress
  porchlight pkg get ./upstream-repo.git/basens@main basens
`,
  },
  {
    path: "pkg update",
    summary: "update a package to a new upstream revision, like `kpt pkg update`",
    usage: `Usage: porchlight pkg update [PKG_PATH][@VERSION] [flags]

Update a local package (default: the current directory) to VERSION of its upstream (default: the
upstream's ref), merging local changes with the upstream's as \`kpt pkg update\` does. The package
must be in a git repository with no uncommitted changes.

Flags:
  --strategy S   resource-merge (default), fast-forward, force-delete-replace, copy-merge
  -h, --help     show this help

Examples:
  porchlight pkg update wordpress@v0.10
  porchlight pkg update . --strategy fast-forward
`,
  },
  {
    path: "pkg init",
    summary: "create a new package's Kptfile, README and package context, like `kpt pkg init`",
    usage: `Usage: porchlight pkg init [DIR] [flags]

Initialize a package in DIR (default: the current directory; created when missing), like
\`kpt pkg init\`: writes the Kptfile (named after the directory), README.md and package-context.yaml,
keeping files that are already there. Refused when DIR already has a Kptfile.

Flags:
  --description D   info.description of the Kptfile (default "sample description")
  --keywords K,...  info.keywords
  --site URL        info.site
  -h, --help        show this help

Examples:
  porchlight pkg init basens --description "a namespace"
`,
  },
] as const;
