/**
 * `porchlight repo get [REPOSITORY...] [-o yaml]`: the repositories the token reaches, as `porchctl repo get`
 * lists Porch's registered repositories — NAME, TYPE (git), CONTENT (Package), DEPLOYMENT (the role:
 * `deployment: true` in `.github/porchlight.yml` makes it a deployment repository, else a blueprint
 * repository), READY (its configuration reads; otherwise False and the reason on stderr) and ADDRESS.
 */
import { stringify } from "yaml";
import { CONFIG_PATH, parseRepoConfig } from "../config/load.js";
import type { GitHubPort, RepoRef } from "../github/port.js";
import { createRestPort } from "../github/rest-client.js";
import { readYamlFile } from "../github/revision-source.js";
import type { CliIo } from "./cli-io.js";
import { UsageError } from "./commands.js";
import { parseFlags } from "./flags.js";
import { reachableRepositories, webBaseOf } from "./rpkg-context.js";
import { columns } from "./table.js";

/** One repository as `repo get` shows it. */
export interface RepositoryRow {
  name: string;
  owner: string;
  deployment: boolean;
  ready: boolean;
  /** Why it is not ready. */
  message: string | undefined;
  address: string;
  defaultBranch: string | undefined;
}

/** Reads one repository's role and readiness; never throws (a failure is `ready: false`). */
export async function readRepositoryRow(
  port: GitHubPort,
  repo: RepoRef,
  webBase: string,
): Promise<RepositoryRow> {
  const row: RepositoryRow = {
    name: repo.repo,
    owner: repo.owner,
    deployment: false,
    ready: false,
    message: undefined,
    address: `${webBase}/${repo.owner}/${repo.repo}.git`,
    defaultBranch: undefined,
  };
  try {
    const repository = await port.readRepository({ repo });
    row.defaultBranch = repository.defaultBranch;
    const loaded = parseRepoConfig(
      await readYamlFile(port, { repo, path: CONFIG_PATH, ref: repository.defaultBranch }),
    );
    if (!loaded.ok) return { ...row, message: loaded.message };
    return { ...row, deployment: loaded.config.deployment, ready: true };
  } catch (error) {
    return { ...row, message: error instanceof Error ? error.message : String(error) };
  }
}

function table(rows: RepositoryRow[]): string {
  const header = ["NAME", "TYPE", "CONTENT", "DEPLOYMENT", "READY", "ADDRESS"];
  const cells = rows.map((r) => [
    `${r.owner}/${r.name}`,
    "git",
    "Package",
    r.deployment ? "true" : "",
    r.ready ? "True" : "False",
    r.address,
  ]);
  return columns([header, ...cells]);
}

/** Porch `Repository` objects (`config.porch.kpt.dev/v1alpha1`) in a kubectl `List`. */
function yamlList(rows: RepositoryRow[]): string {
  return stringify({
    apiVersion: "v1",
    kind: "List",
    items: rows.map((r) => ({
      apiVersion: "config.porch.kpt.dev/v1alpha1",
      kind: "Repository",
      metadata: { name: r.name, annotations: { "porchlight.dev/owner": r.owner } },
      spec: {
        type: "git",
        content: "Package",
        deployment: r.deployment,
        git: { repo: r.address, branch: r.defaultBranch ?? "", directory: "/" },
      },
      status: {
        conditions: [
          {
            type: "Ready",
            status: r.ready ? "True" : "False",
            reason: r.ready ? "Ready" : "Error",
            ...(r.message ? { message: r.message } : {}),
          },
        ],
      },
    })),
  });
}

/** `repo get` with injectable I/O; resolves to the exit code. Throws UsageError for bad arguments. */
export async function runRepoGet(argv: string[], io: CliIo): Promise<number> {
  const parsed = (() => {
    try {
      return parseFlags(argv, [
        { name: "output", short: "o", type: "string" },
        { name: "namespace", short: "n", type: "string" },
      ]);
    } catch (error) {
      throw new UsageError((error as Error).message, "repo get");
    }
  })();
  const output = (parsed.values.get("output") as string | undefined) ?? "table";
  if (output !== "table" && output !== "yaml")
    throw new UsageError(`unknown output format "${output}" (use yaml, or omit -o for a table)`, "repo get");
  try {
    const port = createRestPort(io.env);
    const wanted = new Set(parsed.positional.map((n) => n.toLowerCase()));
    const repos = (await reachableRepositories(port)).filter(
      (r) =>
        wanted.size === 0 ||
        wanted.has(r.repo.toLowerCase()) ||
        wanted.has(`${r.owner}/${r.repo}`.toLowerCase()),
    );
    const rows: RepositoryRow[] = [];
    for (const repo of repos) rows.push(await readRepositoryRow(port, repo, webBaseOf(io.env)));
    for (const r of rows)
      if (r.message) io.stderr(`warning: ${r.owner}/${r.name} is not ready: ${r.message}\n`);
    io.stdout(output === "yaml" ? yamlList(rows) : table(rows));
    return 0;
  } catch (error) {
    io.stderr(`Error: porchlight repo get: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/** Entry point of `porchlight repo ...` (src/cli/main.ts). */
export async function run(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb !== "get" && verb !== "list")
    throw new UsageError(`unknown command ${JSON.stringify(verb)} for "porchlight repo"`);
  return runRepoGet(rest, {
    env: process.env,
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
  });
}
