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
  copy             create a Draft from a Published revision
  propose          propose a Draft (a ready pull request)
  approve          approve a Proposed revision (merge it), refused unless porchlight/render passes
  reject           reject a proposal (Proposed -> Draft, DeletionProposed -> Published)
  propose-delete   propose a Published revision for deletion (DeletionProposed)
  del              delete a Draft, or a DeletionProposed revision (its commit is kept)

Flags:
  -h, --help   show this help
`,
  },
  {
    path: "rpkg get",
    summary: "list package revisions, or the downstream graph of a repository's packages",
    usage: `Usage: porchlight rpkg get --repo OWNER/REPO [flags]
       porchlight rpkg get --repo OWNER/REPO --downstreams [--name PACKAGE] [--in OWNER/REPO,...] [-o table|mermaid]

List the package revisions of a repository (branches drafts/<package>/<workspace>, pull requests,
tags <package>/v<N>, the default branch), like \`porchctl rpkg get\`. With --downstreams, list for each
package the downstream packages cloned from it (in the repositories of the same owner, or those given
with --in), the revision each is on and how far it is behind; -o mermaid prints that graph as a
Mermaid flowchart (paste it in a \`\`\`mermaid block: GitHub draws it).

Flags:
  --repo OWNER/REPO   the repository (required)
  --name PACKAGE      only this package
  -o, --output F      table (default) or yaml (PackageRevision objects); with --downstreams: table or mermaid
  --downstreams       the upstream -> downstream graph instead of the revisions
  --in LIST           with --downstreams: the repositories to look in (default: the owner's)
  -h, --help          show this help

Examples:
  porchlight rpkg get --repo acme/packages
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
  --repo OWNER/REPO   the repository (required)
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
  --repo OWNER/REPO   the repository (required)
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
  --repo OWNER/REPO   the repository (required)
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
  --repo OWNER/REPO   the repository (required)
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
  --repo OWNER/REPO   the repository (required)
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
  --repo OWNER/REPO   the repository (required)
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
  --repo OWNER/REPO   the repository (required)
  -n, --namespace N   accepted for porchctl compatibility
  -h, --help          show this help

Examples:
  porchlight rpkg del blueprints.app.v1 --repo acme/blueprints
`,
  },
] as const;
