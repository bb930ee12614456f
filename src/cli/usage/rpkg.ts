/** Usage texts of `porchlight rpkg` and its verbs (porchctl's `rpkg` commands, over GitHub). */
export const RPKG_USAGES = [
  {
    path: "rpkg",
    summary: "package revision commands (porchctl rpkg, on GitHub)",
    usage: `Usage: porchlight rpkg <command> [args]

Package revisions of a GitHub repository, as \`porchctl rpkg\` shows Porch's: drafts are branches,
proposals pull requests, published revisions tags. GITHUB_TOKEN (and GITHUB_API_URL for GitHub
Enterprise Server) authenticate the calls.

Commands:
  get              list package revisions, or the downstream graph of a repository's packages
  init             create a Draft of a new package (branch drafts/<package>/<workspace>)
  clone            create a Draft of a downstream package cloned from an upstream revision
  copy             create a Draft from a Published revision
  pull             read a revision's files into a directory, or a ResourceList on stdout
  push             write a directory to a Draft
  propose          propose a Draft (a ready pull request)
  approve          approve a Proposed revision (merge it), refused unless porchlight/render passes
  reject           reject a proposal (Proposed -> Draft, DeletionProposed -> Published)
  propose-delete   propose a Published revision for deletion (DeletionProposed)
  del              delete a Draft, or a DeletionProposed revision (its commit is kept)
  upgrade          create a Draft that upgrades a downstream package to an upstream revision

A PACKAGE_REVISION is a NAME as rpkg get shows it (<repository>.<package>.<workspace>); it is looked
up in the repositories the token reaches (--repo narrows the search to one).

Flags:
  -h, --help   show this help
`,
  },
  {
    path: "rpkg get",
    summary: "list package revisions, or the downstream graph of a repository's packages",
    usage: `Usage: porchlight rpkg get [PACKAGE_REVISION...] [flags]
       porchlight rpkg get --repo OWNER/REPO --downstreams [--name PACKAGE] [--in OWNER/REPO,...] [-o table|mermaid]

List the package revisions of the repositories the token reaches, or of --repo (branches
drafts/<package>/<workspace>, pull requests, tags <package>/v<N>, the default branch), like
\`porchctl rpkg get\`; NAMEs are unique within a repository. Given NAMEs, only those. With
--downstreams, list for each package the downstream packages cloned from it (in the repositories of
the same owner, or those given with --in), the revision each is on and how far it is behind;
-o mermaid prints that graph as a Mermaid flowchart (paste it in a \`\`\`mermaid block: GitHub draws it).

Flags:
  --repo OWNER/REPO   only this repository (required with --downstreams)
  --name PACKAGE      only this package
  --revision N        only this revision (0 for Draft and Proposed, -1 for the default branch's)
  --workspace WS      only this workspace
  -o, --output F      table (default) or yaml (PackageRevision objects); with --downstreams: table or mermaid
  --downstreams       the upstream -> downstream graph instead of the revisions
  --in LIST           with --downstreams: the repositories to look in (default: the owner's)
  -n, --namespace N   accepted for porchctl compatibility
  -h, --help          show this help

Examples:
  porchlight rpkg get
  porchlight rpkg get blueprints.base.v1 -o yaml
  porchlight rpkg get --repo acme/packages --name base -o yaml
  porchlight rpkg get --repo acme/packages --downstreams -o mermaid
`,
  },
  {
    path: "rpkg init",
    summary: "create a Draft of a new package (branch drafts/<package>/<workspace>)",
    usage: `Usage: porchlight rpkg init PACKAGE_NAME --repo OWNER/REPO --workspace WS [flags]

Create a Draft package revision, as porchctl rpkg init: branch drafts/PACKAGE_NAME/WS from the
default branch holding PACKAGE_NAME/Kptfile, README.md and package-context.yaml.

Flags:
  --repo OWNER/REPO   the repository (required; porchctl's --repository also works)
  --repository R      the same as --repo
  --workspace WS      the Draft's workspace name (required)
  --description D     info.description of the Kptfile (default "sample description")
  --keywords K,...    info.keywords
  --site URL          info.site
  -n, --namespace N   accepted for porchctl compatibility (GitHub has no namespaces)
  -h, --help          show this help

Examples:
  porchlight rpkg init app --repo acme/blueprints --workspace v1
`,
  },
  {
    path: "rpkg copy",
    summary: "create a Draft from a Published revision",
    usage: `Usage: porchlight rpkg copy SOURCE_PACKAGE_REVISION --repo OWNER/REPO --workspace WS

Create a new Draft of a package from one of its Published revisions, as porchctl rpkg copy: branch
drafts/<package>/WS at the revision's commit.

Flags:
  --repo OWNER/REPO   look the NAME up in this repository only
  --workspace WS      the new Draft's workspace name (required)
  -n, --namespace N   accepted for porchctl compatibility
  -h, --help          show this help

Examples:
  porchlight rpkg copy blueprints.app.v1 --repo acme/blueprints --workspace v2
`,
  },
  {
    path: "rpkg propose",
    summary: "propose a Draft (a ready pull request)",
    usage: `Usage: porchlight rpkg propose PACKAGE_REVISION... --repo OWNER/REPO

Propose Draft revisions, as porchctl rpkg propose: a pull request (ready for review) from the draft
branch into the default branch, or the draft's GitHub draft pull request marked ready.

Flags:
  --repo OWNER/REPO   look the NAME up in this repository only (default: every repository the token reaches)
  -n, --namespace N   accepted for porchctl compatibility
  -h, --help          show this help

Examples:
  porchlight rpkg propose blueprints.app.v1 --repo acme/blueprints
`,
  },
  {
    path: "rpkg approve",
    summary: "approve a Proposed revision (merge it), refused unless porchlight/render passes",
    usage: `Usage: porchlight rpkg approve PACKAGE_REVISION... --repo OWNER/REPO

Approve Proposed revisions, as porchctl rpkg approve: merge the pull request (porchlight then tags
<package>/v<N>). Refused, exit 1, while the porchlight/render check on the pull request head is not
success: the app's merge gate would not publish it.

Flags:
  --repo OWNER/REPO   look the NAME up in this repository only (default: every repository the token reaches)
  -n, --namespace N   accepted for porchctl compatibility
  -h, --help          show this help

Examples:
  porchlight rpkg approve blueprints.app.v1 --repo acme/blueprints
`,
  },
  {
    path: "rpkg reject",
    summary: "reject a proposal (Proposed -> Draft, DeletionProposed -> Published)",
    usage: `Usage: porchlight rpkg reject PACKAGE_REVISION... --repo OWNER/REPO

Reject proposals, as porchctl rpkg reject: a Proposed revision's pull request is closed (the branch
is kept: a Draft again); a DeletionProposed revision is Published again.

Flags:
  --repo OWNER/REPO   look the NAME up in this repository only (default: every repository the token reaches)
  -n, --namespace N   accepted for porchctl compatibility
  -h, --help          show this help

Examples:
  porchlight rpkg reject blueprints.app.v1 --repo acme/blueprints
`,
  },
  {
    path: "rpkg propose-delete",
    summary: "propose a Published revision for deletion (DeletionProposed)",
    usage: `Usage: porchlight rpkg propose-delete PACKAGE_REVISION... --repo OWNER/REPO

Propose Published revisions for deletion, as porchctl rpkg propose-delete: branch
deletion-proposed/<package>/v<N> at the revision's commit marks it DeletionProposed.

Flags:
  --repo OWNER/REPO   look the NAME up in this repository only (default: every repository the token reaches)
  -n, --namespace N   accepted for porchctl compatibility
  -h, --help          show this help

Examples:
  porchlight rpkg propose-delete blueprints.app.v1 --repo acme/blueprints
`,
  },
  {
    path: "rpkg del",
    summary: "delete a Draft, or a DeletionProposed revision (its commit is kept)",
    usage: `Usage: porchlight rpkg del PACKAGE_REVISION... --repo OWNER/REPO

Delete package revisions, as porchctl rpkg del: a Draft (or Proposed) revision's pull request is
closed and its branch deleted; a DeletionProposed revision's tag is deleted and its commit kept
reachable from branch deleted/<package>/v<N>. A Published revision must be proposed for deletion first.

Flags:
  --repo OWNER/REPO   look the NAME up in this repository only (default: every repository the token reaches)
  -n, --namespace N   accepted for porchctl compatibility
  -h, --help          show this help

Examples:
  porchlight rpkg del blueprints.app.v1 --repo acme/blueprints
`,
  },
  {
    path: "rpkg clone",
    summary: "create a Draft of a downstream package cloned from an upstream revision",
    usage: `Usage: porchlight rpkg clone UPSTREAM PACKAGE_NAME --repo OWNER/REPO --workspace WS [flags]

Create a Draft of a new package cloned from an upstream, as porchctl rpkg clone: branch
drafts/PACKAGE_NAME/WS from the default branch holding the upstream package as kpt pkg get fetches it
(Kptfile upstream and upstreamLock, kpt's merge comments) and package-context.yaml as Porch's clone
generates it (data.name = the package's name, data.package-path = PACKAGE_NAME). UPSTREAM is a
Published revision NAME in any repository the token reaches, or a git URL on the same GitHub:
<host>/<owner>/<repo>.git/<directory>@<ref>.

Flags:
  --repo OWNER/REPO   the repository the Draft is created in (required)
  --repository R      the same as --repo (porchctl's name)
  --workspace WS      the Draft's workspace name (required)
  --strategy S        upstream.updateStrategy: resource-merge (default), fast-forward,
                      force-delete-replace, copy-merge
  --directory DIR     with a git URL without a directory: the package's directory (porchctl's flag)
  --ref REF           with a git URL without @REF: the ref (default: the default branch)
  -n, --namespace N   accepted for porchctl compatibility
  -h, --help          show this help

Examples:
  porchlight rpkg clone blueprints.base.v1 east --repo acme/deployments --workspace v1
  porchlight rpkg clone https://github.com/acme/blueprints.git/base@base/v1 east --repo acme/deployments --workspace v1
`,
  },
  {
    path: "rpkg pull",
    summary: "read a revision's files into a directory, or a ResourceList on stdout",
    usage: `Usage: porchlight rpkg pull PACKAGE_REVISION [DIR] [flags]

Read the files of a package revision, as porchctl rpkg pull: into DIR (created; it must not exist or
be empty), or without DIR its resources as a ResourceList on stdout (each with its file in
config.kubernetes.io/path).

Flags:
  --repo OWNER/REPO   look the NAME up in this repository only
  -n, --namespace N   accepted for porchctl compatibility
  -h, --help          show this help

Examples:
  porchlight rpkg pull deployments.east.v1 ./east
  porchlight rpkg pull deployments.east.v1 > east.yaml
`,
  },
  {
    path: "rpkg push",
    summary: "write a directory to a Draft",
    usage: `Usage: porchlight rpkg push PACKAGE_REVISION DIR [flags]

Write the package in DIR to a Draft, as porchctl rpkg push: one commit on its branch (if the branch
moved since it was read, nothing is written) that makes the package exactly DIR's files; the app
renders it.

Flags:
  --repo OWNER/REPO   look the NAME up in this repository only
  -n, --namespace N   accepted for porchctl compatibility
  -h, --help          show this help

Examples:
  porchlight rpkg push deployments.east.v1 ./east
`,
  },
  {
    path: "rpkg upgrade",
    summary: "create a Draft that upgrades a downstream package to an upstream revision",
    usage: `Usage: porchlight rpkg upgrade PACKAGE_REVISION --workspace WS [--revision N] [flags]

Create a Draft that upgrades the downstream package PACKAGE_REVISION (a Published revision) to
revision N of its upstream (default: the newest), as porchctl rpkg upgrade: kpt's update with the
Kptfile's strategy (or --strategy), on branch drafts/<package>/WS. The local edits the merge
overrides are printed and reported as a porchlight/upgrade check run on the Draft's commit.

Flags:
  --workspace WS      the new Draft's workspace name (required)
  --revision N        the upstream revision to upgrade to (default: the newest)
  --strategy S        resource-merge, fast-forward, force-delete-replace, copy-merge
                      (default: the Kptfile's upstream.updateStrategy)
  --repo OWNER/REPO   look the NAME up in this repository only
  -n, --namespace N   accepted for porchctl compatibility
  -h, --help          show this help

Examples:
  porchlight rpkg upgrade deployments.east.v1 --revision 2 --workspace v2
`,
  },
] as const;
