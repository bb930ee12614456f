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
  get   list package revisions, or the downstream graph of a repository's packages

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
] as const;
