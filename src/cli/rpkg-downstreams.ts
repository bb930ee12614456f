/**
 * `porchlight rpkg get --repo O/R --downstreams [--name P] [--in O/R2,O/R3]`: the graph of a
 * repository's packages — for each package, the downstream packages cloned from it (in the
 * repositories of the same owner, or those given with `--in`) and the revision each is on.
 *
 * ```
 * PACKAGE   LATEST   DOWNSTREAM              REVISION   BEHIND   VARIANT
 * base      v3       acme/deploy/east/app    v2         1        -
 * base      v3       acme/deploy/west/app    v3         0        west
 * ```
 */
import { parseArgs } from "node:util";
import type { RepoRef } from "../github/port.js";
import { createRestPort, parseRepoSlug } from "../github/rest-client.js";
import { type DownstreamEntry, downstreamsInRepository } from "../lifecycle/downstream-index.js";
import { latestRevision } from "../lifecycle/revision-naming.js";
import { OWNER_ANNOTATION, repoKey } from "../lifecycle/upstream-source.js";
import { mermaidGraph, revisionNote, revisionState } from "../report/mermaid.js";
import type { CliIo } from "./cli-io.js";
import { commandAt } from "./commands.js";
import { columns } from "./table.js";

const USAGE = commandAt("rpkg get")?.usage ?? "";

/** One row of the view. */
export interface DownstreamRow {
  package: string;
  latest: number | undefined;
  downstream: string;
  revision: number | undefined;
  variant: string | undefined;
}

/** Formats rows like kubectl's table printer. */
export function formatDownstreams(rows: readonly DownstreamRow[]): string {
  const header = ["PACKAGE", "LATEST", "DOWNSTREAM", "REVISION", "BEHIND", "VARIANT"];
  const v = (n: number | undefined) => (n === undefined ? "-" : `v${n}`);
  const cells = rows.map((r) => [
    r.package || ".",
    v(r.latest),
    r.downstream,
    v(r.revision),
    r.latest !== undefined && r.revision !== undefined ? String(Math.max(0, r.latest - r.revision)) : "-",
    r.variant ?? "-",
  ]);
  return columns([header, ...cells]);
}

/** The rows as a Mermaid flowchart: each upstream package (with its latest revision) to its downstreams. */
export function downstreamsMermaid(rows: readonly DownstreamRow[]): string {
  return mermaidGraph(
    rows.map((r) => ({
      upstream: r.package || ".",
      upstreamNote: r.latest === undefined ? "unpublished" : `latest v${r.latest}`,
      downstream: r.downstream,
      downstreamNote: `${revisionNote(r.latest, r.revision)}${r.variant ? ` · variant ${r.variant}` : ""}`,
      state: revisionState(r.latest, r.revision),
    })),
  );
}

/** The host upstream URLs name for the API the CLI talks to (`GITHUB_API_URL`). */
function hostOf(env: CliIo["env"]): string {
  const api = env.GITHUB_API_URL?.trim();
  if (!api) return "github.com";
  const url = new URL(api);
  if (url.host === "api.github.com") return "github.com";
  return url.protocol === "https:" ? url.host : `${url.protocol}//${url.host}`;
}

type Flags = { repo?: string; name?: string; in?: string; output?: string };

/** The flags and the repositories to read; a message (printed with the usage) on bad input. */
function parseDownstreamsArgs(argv: string[]): {
  values: Flags;
  target: RepoRef;
  scan: RepoRef[] | undefined;
} {
  const { values } = parseArgs({
    args: argv,
    options: {
      repo: { type: "string" },
      name: { type: "string" },
      in: { type: "string" },
      output: { type: "string", short: "o" },
    },
    strict: true,
  });
  if (values.output !== undefined && values.output !== "table" && values.output !== "mermaid") {
    throw new Error(`unknown output format "${values.output}" for --downstreams (use table or mermaid)`);
  }
  const target = parseRepoSlug(values.repo);
  const scan = values.in?.split(",").map((s) => parseRepoSlug(s.trim()));
  return { values, target, scan };
}

/** The downstream packages one repository holds (its default branch's Kptfiles naming an upstream). */
async function downstreamsOf(
  port: ReturnType<typeof createRestPort>,
  repo: RepoRef,
  host: string,
): Promise<DownstreamEntry[]> {
  const info = await port.readRepository({ repo });
  const sha = await port.readBranchHead({ repo, branch: info.defaultBranch });
  if (!sha) return [];
  const tree = await port.readTree({ repo, sha });
  const kptfiles = tree.entries.filter(
    (e) => e.type === "blob" && (e.path === "Kptfile" || e.path.endsWith("/Kptfile")),
  );
  const blobs = await port.readBlobs({ repo, blobs: kptfiles.map((e) => ({ sha: e.sha, size: e.size })) });
  return downstreamsInRepository({
    repo: `${repo.owner}/${repo.repo}`,
    host,
    ownerAnnotation: OWNER_ANNOTATION,
    kptfiles: new Map(kptfiles.map((e) => [e.path, Buffer.from(blobs.get(e.sha) ?? []).toString("utf8")])),
  });
}

/** The command with injectable I/O; returns the exit code. */
export async function runRpkgDownstreams(argv: string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parseDownstreamsArgs>;
  try {
    parsed = parseDownstreamsArgs(argv);
  } catch (error) {
    io.stderr(`Error: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 1;
  }
  const { values, target, scan } = parsed;
  try {
    const port = createRestPort(io.env);
    const host = hostOf(io.env);
    const repos = scan ?? (await port.listOwnerRepositories({ owner: target.owner }));
    const entries: DownstreamEntry[] = [];
    for (const repo of repos) entries.push(...(await downstreamsOf(port, repo, host)));
    const mine = entries.filter(
      (e) =>
        e.upstream.repo === repoKey(`${target.owner}/${target.repo}`) &&
        (values.name === undefined || e.upstream.package === values.name),
    );
    const tags =
      mine.length > 0 ? (await port.listTags({ repo: target, prefix: "" })).map((t) => t.name) : [];
    const rows = mine
      .map((e) => ({
        package: e.upstream.package,
        latest: latestRevision(tags, e.upstream.package),
        downstream: `${e.repo}/${e.package}`,
        revision: e.lock.revision,
        variant: e.variant,
      }))
      .sort((a, b) =>
        a.package === b.package ? (a.downstream < b.downstream ? -1 : 1) : a.package < b.package ? -1 : 1,
      );
    io.stdout(values.output === "mermaid" ? downstreamsMermaid(rows) : formatDownstreams(rows));
    return 0;
  } catch (error) {
    io.stderr(
      `porchlight rpkg get --downstreams: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
}
