/**
 * `porchlight protect <owner/repo> [--app-id <id>] [--require-pull-request] [--evaluate]`: creates (or
 * updates) a repository ruleset on the default branch that requires the `porchlight/render` check from
 * this GitHub App, so that a package revision can only be approved (merged) when it renders cleanly.
 * Token from `GITHUB_TOKEN` (needs repository administration), API from `GITHUB_API_URL` (GHE), app id
 * from `--app-id` or Probot's `APP_ID`.
 */
import { parseArgs } from "node:util";
import { createRestPort, parseRepoSlug } from "../github/rest-client.js";
import { applyRuleset, RENDER_CHECK_NAME } from "../github/rulesets.js";
import type { CliIo } from "./cli-io.js";
import { commandAt } from "./commands.js";

const USAGE = commandAt("protect")?.usage ?? "";

function fail(io: CliIo, message: string, code: number): number {
  io.stderr(`porchlight protect: ${message}\n`);
  return code;
}

/** kpt's usage error: message, blank line, usage; exit 1. */
function usageError(io: CliIo, message: string): number {
  io.stderr(`Error: ${message}\n\n${USAGE}`);
  return 1;
}

/** The command with injectable I/O; returns the exit code (0 ok, 1 usage or GitHub error). */
export async function runProtect(argv: string[], io: CliIo): Promise<number> {
  const args = argv[0] === "protect" ? argv.slice(1) : argv;
  let parsed: ReturnType<typeof parseProtectArgs>;
  try {
    parsed = parseProtectArgs(args);
  } catch (error) {
    return usageError(io, error instanceof Error ? error.message : String(error));
  }
  if (parsed.help) {
    io.stdout(USAGE);
    return 0;
  }
  const appIdText = parsed.appId ?? io.env.APP_ID;
  const appId = Number(appIdText);
  if (!appIdText || !Number.isSafeInteger(appId) || appId <= 0) {
    return usageError(
      io,
      `the GitHub App id is ${appIdText ? `not a positive integer: "${appIdText}"` : "missing"}: pass --app-id <id> or set APP_ID (only check runs from that app will satisfy the rule)`,
    );
  }
  let repo: { owner: string; repo: string };
  try {
    repo = parseRepoSlug(parsed.repo);
  } catch (error) {
    return usageError(io, error instanceof Error ? error.message : String(error));
  }
  try {
    const outcome = await applyRuleset(createRestPort(io.env), {
      repo,
      appId,
      requirePullRequest: parsed.requirePullRequest,
      enforcement: parsed.evaluate ? "evaluate" : "active",
    });
    io.stdout(
      `${outcome.action} ruleset ${outcome.id} on ${repo.owner}/${repo.repo}: the default branch requires ` +
        `"${RENDER_CHECK_NAME}" from app ${appId}${parsed.requirePullRequest ? " and a pull request" : ""}` +
        `${outcome.url ? `\n${outcome.url}` : ""}\n`,
    );
    return 0;
  } catch (error) {
    const status =
      typeof error === "object" && error && "status" in error && typeof error.status === "number"
        ? ` (HTTP ${error.status})`
        : "";
    const hint =
      status.includes("403") || status.includes("404")
        ? ": the token needs admin rights on the repository"
        : "";
    return fail(io, `${error instanceof Error ? error.message : String(error)}${status}${hint}`, 1);
  }
}

function parseProtectArgs(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    options: {
      "app-id": { type: "string" },
      "require-pull-request": { type: "boolean" },
      evaluate: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 1) throw new Error(`one repository expected, got ${positionals.join(" ")}`);
  return {
    repo: positionals[0],
    appId: values["app-id"],
    requirePullRequest: values["require-pull-request"] === true,
    evaluate: values.evaluate === true,
    help: values.help === true,
  };
}

/** Entry point used by `porchlight protect ...` (src/cli/main.ts). */
export async function run(argv: string[]): Promise<number> {
  return runProtect(argv, {
    env: process.env,
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
  });
}
