/**
 * `porchlight rpkg get [NAME...] [--repo <owner/repo>] [--name <package>] [--revision N] [--workspace WS]
 * [-o yaml]`: lists the package revisions of the GitHub repositories the token reaches (or of `--repo`) the
 * way `porchctl rpkg get` lists Porch's, derived from their draft branches, pull requests, tags and default
 * branches. Reads `GITHUB_TOKEN` (and `GITHUB_API_URL` for GitHub Enterprise
 * Server).
 *
 * ```
 * NAME              PACKAGE   WORKSPACENAME   REVISION   LATEST   LIFECYCLE   REPOSITORY
 * pkgs.app.main     app       main            -1         false    Published   pkgs
 * pkgs.app.v1       app       v1              1          true     Published   pkgs
 * pkgs.app.labels   app       labels          0          false    Proposed    pkgs
 * ```
 *
 * `-o yaml` prints a `List` of `porch.kpt.dev/v1alpha1` PackageRevision objects.
 */
import { parseArgs } from "node:util";
import { stringify } from "yaml";
import type { RepoRef } from "../github/port.js";
import { createRestPort, parseRepoSlug } from "../github/rest-client.js";
import type { PackageRevisionInfo } from "../lifecycle/revision-list.js";
import type { CliIo } from "./cli-io.js";
import { commandAt, UsageError } from "./commands.js";
import { reachableRepositories, webBaseOf } from "./rpkg-context.js";
import { draftOwners, toPackageRevisionList, variantOwners } from "./rpkg-get-yaml.js";
import { listRepoRevisions } from "./rpkg-revisions.js";
import { closeNames } from "./suggest.js";
import { columns } from "./table.js";

const USAGE = commandAt("rpkg get")?.usage ?? "";

/** Formats rows like kubectl's table printer: columns separated by at least three spaces. */
export function formatTable(rows: PackageRevisionInfo[]): string {
  const header = ["NAME", "PACKAGE", "WORKSPACENAME", "REVISION", "LATEST", "LIFECYCLE", "REPOSITORY"];
  const cells = rows.map((r) => [
    r.name,
    r.packageName,
    r.workspace,
    String(r.revision),
    String(r.latest),
    r.lifecycle,
    r.repository,
  ]);
  return columns([header, ...cells]);
}

/** The flags of `rpkg get` (porchctl's `--name`, `--revision`, `--workspace` filters included). */
interface GetFlags {
  repo?: string;
  output?: string;
  name?: string;
  revision?: string;
  workspace?: string;
  help?: boolean;
}

function parseGetArgs(args: string[]): { values: GetFlags; names: string[] } {
  const { values, positionals } = parseArgs({
    args,
    options: {
      repo: { type: "string" },
      output: { type: "string", short: "o" },
      name: { type: "string" },
      revision: { type: "string" },
      workspace: { type: "string" },
      namespace: { type: "string", short: "n" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
    strict: true,
  });
  // porchctl's --revision is an int64 flag: pflag refuses anything else before the command runs.
  if (values.revision !== undefined && !/^[+-]?\d+$/.test(values.revision))
    throw new Error(
      `invalid argument ${JSON.stringify(values.revision)} for "--revision" flag: strconv.ParseInt: parsing ${JSON.stringify(values.revision)}: invalid syntax`,
    );
  return { values, names: positionals };
}

/** One repository's rows, filtered, and (for `-o yaml`) its PackageRevision objects. */
async function repoRevisions(
  port: ReturnType<typeof createRestPort>,
  repo: RepoRef,
  options: { values: GetFlags; names: string[]; webBase: string; yaml: boolean },
): Promise<{ rows: PackageRevisionInfo[]; items: unknown[]; all: string[] }> {
  const { values, names } = options;
  const listed = await listRepoRevisions(port, repo);
  const { refs } = listed;
  const all = listed.rows.map((r) => r.name);
  const rows = listed.rows.filter(
    (r) =>
      (values.name === undefined || r.packageName === values.name) &&
      (values.revision === undefined || r.revision === Number(values.revision)) &&
      (values.workspace === undefined || r.workspace === values.workspace) &&
      (names.length === 0 || names.includes(r.name)),
  );
  if (!options.yaml || rows.length === 0) return { rows, items: [], all };
  const onDefaultBranch = new Set(refs.defaultBranchPaths);
  const owners = await variantOwners(port, {
    repo,
    sha: refs.defaultBranchSha,
    kptfiles: new Set(
      rows
        .map((r) => (r.packagePath ? `${r.packagePath}/Kptfile` : "Kptfile"))
        .filter((f) => onDefaultBranch.has(f)),
    ),
  });
  for (const [name, owner] of await draftOwners(port, repo, rows)) owners.set(name, owner);
  const list = toPackageRevisionList(rows, `${options.webBase}/${repo.owner}/${repo.repo}`, owners);
  return { rows, items: list.items as unknown[], all };
}

/**
 * kubectl's answer to NAMEs that are not there: `Error: ... not found` on stderr for each (with the
 * close names it may mean); the found ones are still printed. Returns how many were missing.
 */
function reportMissing(names: readonly string[], all: ReadonlySet<string>, io: CliIo): number {
  const missing = names.filter((n) => !all.has(n));
  for (const name of missing) {
    const near = closeNames(name, all);
    io.stderr(
      `Error: package revision ${JSON.stringify(name)} not found${near.length ? `; did you mean ${near.join(", ")}?` : ""}\n`,
    );
  }
  return missing.length;
}

/**
 * The command with injectable I/O; returns the exit code (0 ok, 1 usage, GitHub or config error). Without
 * `--repo` it lists every repository the token reaches (a repository whose listing fails is named on
 * stderr and skipped); positional NAMEs keep only those revisions.
 */
export async function runRpkgGet(argv: string[], io: CliIo): Promise<number> {
  let args = argv;
  if (args[0] === "rpkg") args = args.slice(1);
  if (args[0] === "get" || args[0] === "list") args = args.slice(1);
  if (args.includes("--downstreams")) {
    const { runRpkgDownstreams } = await import("./rpkg-downstreams.js");
    return runRpkgDownstreams(
      args.filter((a) => a !== "--downstreams"),
      io,
    );
  }
  let parsed: { values: GetFlags; names: string[] };
  try {
    parsed = parseGetArgs(args);
  } catch (error) {
    io.stderr(`Error: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 1;
  }
  const { values, names } = parsed;
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  const output = values.output ?? "table";
  if (output !== "table" && output !== "yaml") {
    io.stderr(`Error: unknown output format "${output}" (use yaml, or omit -o for a table)\n\n${USAGE}`);
    return 1;
  }
  let only: RepoRef | undefined;
  try {
    only = values.repo === undefined ? undefined : parseRepoSlug(values.repo);
  } catch (error) {
    io.stderr(`Error: --repo: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 1;
  }
  try {
    const port = createRestPort(io.env);
    const repos = only ? [only] : await reachableRepositories(port);
    const got = await listRevisions(port, repos, { values, names, only, yaml: output === "yaml" }, io);
    if (got.rows.length > 0 || names.length === 0 || output === "yaml")
      io.stdout(
        output === "yaml"
          ? stringify({ apiVersion: "v1", kind: "List", items: got.items })
          : formatTable(got.rows),
      );
    if (reportMissing(names, got.all, io) > 0) return 1;
    return got.failed > 0 && got.rows.length === 0 && repos.length === got.failed ? 1 : 0;
  } catch (error) {
    io.stderr(`porchlight rpkg get: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/**
 * The revisions of `repos` (rows, `-o yaml` items, every NAME seen). A repository whose listing fails is
 * named on stderr and counted in `failed`, unless it is the one `--repo` named (then it throws).
 */
async function listRevisions(
  port: ReturnType<typeof createRestPort>,
  repos: RepoRef[],
  o: { values: GetFlags; names: string[]; only: RepoRef | undefined; yaml: boolean },
  io: CliIo,
) {
  const rows: PackageRevisionInfo[] = [];
  const items: unknown[] = [];
  const all = new Set<string>();
  let failed = 0;
  for (const repo of repos) {
    try {
      const got = await repoRevisions(port, repo, {
        values: o.values,
        names: o.names,
        webBase: webBaseOf(io.env),
        yaml: o.yaml,
      });
      // Across repositories, REPOSITORY names the owner too (two owners may have a `catalog`).
      rows.push(
        ...(o.only ? got.rows : got.rows.map((r) => ({ ...r, repository: `${repo.owner}/${repo.repo}` }))),
      );
      items.push(...got.items);
      for (const name of got.all) all.add(name);
    } catch (error) {
      if (o.only) throw error;
      failed += 1;
      io.stderr(`warning: ${repo.owner}/${repo.repo} not listed: ${(error as Error).message}\n`);
    }
  }
  return { rows, items, all, failed };
}

/** Entry point used by `porchlight rpkg ...` (src/cli/main.ts). */
export async function run(argv: string[]): Promise<number> {
  const [verb] = argv;
  if (verb !== "get" && verb !== "list") {
    const { runRpkgVerb, RPKG_VERBS } = await import("./rpkg-verbs.js");
    if (verb !== undefined && RPKG_VERBS.includes(verb))
      return runRpkgVerb(argv, {
        env: process.env,
        stdout: (t) => process.stdout.write(t),
        stderr: (t) => process.stderr.write(t),
      });
    throw new UsageError(`unknown command ${JSON.stringify(verb)} for "porchlight rpkg"`);
  }
  return runRpkgGet(argv, {
    env: process.env,
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
  });
}
