/**
 * app.yml against the code: the app subscribes to exactly the webhook events it registers handlers for,
 * and asks for exactly the permissions that those events and the GitHub calls it makes need (GitHub's
 * "Permissions required for GitHub Apps"). The calls are found in the source: a new Octokit method or
 * GraphQL operation fails this test until it is given its permission below.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Probot } from "probot";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createApp } from "../src/index.js";
import { EmbeddedQueue } from "../src/server/embedded-queue.js";

const root = path.resolve(import.meta.dirname, "..");

type Level = "read" | "write";
/** What a call needs: a repository permission, nothing beyond the app's JWT, or it is the CLI's (user token). */
type Need = { permission: string; level: Level } | "app-jwt" | "cli";
const read = (permission: string): Need => ({ permission, level: "read" });
const write = (permission: string): Need => ({ permission, level: "write" });

/** Events GitHub delivers to every app whether or not it subscribes (they cannot be listed in app.yml). */
const ALWAYS_DELIVERED = new Set(["installation", "installation_repositories"]);

/** The permission an event subscription requires. */
const EVENT_PERMISSION: Record<string, string> = {
  push: "contents",
  pull_request: "pull_requests",
  check_run: "checks",
  check_suite: "checks",
  merge_group: "merge_queues",
  issues: "issues",
  issue_comment: "issues",
};

/** Octokit REST methods (`octokit.rest.<namespace>.<method>`) and what they need. */
const REST: Record<string, Need> = {
  "apps.listInstallations": "app-jwt",
  "apps.listReposAccessibleToInstallation": read("metadata"),
  "checks.create": write("checks"),
  "checks.listForRef": read("checks"),
  "checks.update": write("checks"),
  "git.createBlob": write("contents"),
  "git.createCommit": write("contents"),
  "git.createRef": write("contents"),
  "git.createTree": write("contents"),
  "git.deleteRef": write("contents"),
  "git.getBlob": read("contents"),
  "git.getCommit": read("contents"),
  "git.getRef": read("contents"),
  "git.getTree": read("contents"),
  "git.listMatchingRefs": read("contents"),
  // comments on pull requests: the pull_requests permission covers a pull request's issue comments
  "issues.createComment": write("pull_requests"),
  "issues.listComments": read("pull_requests"),
  "issues.updateComment": write("pull_requests"),
  // the package dashboard issue (opted in per repository)
  "issues.create": write("issues"),
  "issues.listForRepo": read("issues"),
  "issues.update": write("issues"),
  "pulls.create": write("pull_requests"),
  "pulls.list": read("pull_requests"),
  "pulls.listFiles": read("pull_requests"),
  "pulls.merge": write("contents"),
  "pulls.update": write("pull_requests"),
  "repos.compareCommitsWithBasehead": read("contents"),
  "repos.get": read("metadata"),
  // repo get / NAME search in the CLI, with the user's own token
  "repos.listForAuthenticatedUser": "cli",
  "repos.getCommit": read("contents"),
  "repos.getContent": read("contents"),
  "repos.listForOrg": read("metadata"),
  "repos.listForUser": read("metadata"),
  "repos.listTags": read("metadata"),
  // `porchlight protect`, run by a repository administrator with their own token
  "repos.createRepoRuleset": "cli",
  "repos.getRepoRulesets": "cli",
  "repos.updateRepoRuleset": "cli",
};

/** GraphQL operations (named `porchlight<Name>` in the source) and what they need. */
const GRAPHQL: Record<string, Need[]> = {
  Blobs: [read("contents")],
  Commit: [write("contents")],
  ConvertToDraft: [write("pull_requests")],
  MarkReady: [write("pull_requests")],
  Paths: [read("contents")],
  Snapshot: [read("contents"), read("pull_requests")],
  UpdateRefs: [write("contents")],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Every Octokit REST method and GraphQL operation named in src/, with the files naming them. */
function callsInSource(): { rest: Map<string, string[]>; graphql: Map<string, string[]> } {
  const rest = new Map<string, string[]>();
  const graphql = new Map<string, string[]>();
  const add = (m: Map<string, string[]>, key: string, file: string) =>
    m.set(key, [...(m.get(key) ?? []), file]);
  for (const file of sourceFiles(path.join(root, "src"))) {
    const text = readFileSync(file, "utf8");
    const rel = path.relative(root, file);
    for (const m of text.matchAll(/\.rest\.([a-zA-Z]+)\.([a-zA-Z]+)/g)) add(rest, `${m[1]}.${m[2]}`, rel);
    for (const m of text.matchAll(/\b(?:query|mutation) porchlight([A-Za-z]+)/g))
      add(graphql, m[1] ?? "", rel);
  }
  return { rest, graphql };
}

/** The events the app registers handlers for, recorded from the real app function as Probot loads it. */
async function registeredEvents(): Promise<string[]> {
  const probot = new Probot({ githubToken: "test-token", logLevel: "fatal" });
  const events: string[] = [];
  const on = probot.on.bind(probot);
  probot.on = ((name: string | string[], handler: never) => {
    events.push(...(Array.isArray(name) ? name : [name]));
    return on(name as never, handler);
  }) as typeof probot.on;
  await probot.load(
    createApp(
      { allowExec: false, allowContainers: false, pushOnFailure: "Unrendered" },
      {
        queue: new EmbeddedQueue({}),
        reconcile: false,
      },
    ),
  );
  return [...new Set(events)].sort();
}

interface Manifest {
  default_events: string[];
  default_permissions: Record<string, Level>;
}
const manifest = parse(readFileSync(path.join(root, "app.yml"), "utf8")) as Manifest;

describe("app.yml", () => {
  it("subscribes to exactly the events the app handles", async () => {
    const handled = await registeredEvents();
    expect(handled).toContain("push");
    const subscribable = handled.map((e) => e.split(".")[0] ?? e).filter((e) => !ALWAYS_DELIVERED.has(e));
    expect([...manifest.default_events].sort()).toEqual([...new Set(subscribable)].sort());
  });

  it("every GitHub call in the source has its permission listed here, and none listed is gone", () => {
    const { rest, graphql } = callsInSource();
    expect([...rest.keys()].filter((k) => !(k in REST))).toEqual([]);
    expect(Object.keys(REST).filter((k) => !rest.has(k))).toEqual([]);
    expect([...graphql.keys()].filter((k) => !(k in GRAPHQL))).toEqual([]);
    expect(Object.keys(GRAPHQL).filter((k) => !graphql.has(k))).toEqual([]);
  });

  it("the CLI-only calls (rulesets, with the administrator's token) are not reachable from the app", () => {
    const callers = sourceFiles(path.join(root, "src"))
      .filter((f) => /\b(applyRuleset|ensureRuleset)\(/.test(readFileSync(f, "utf8")))
      .map((f) => path.relative(root, f).split(path.sep)[1]);
    expect(new Set(callers)).toEqual(new Set(["cli", "github"]));
  });

  it("asks for exactly the permissions the events and the calls need, at the level they need", async () => {
    const need = new Map<string, Level>([["metadata", "read"]]);
    const add = (n: Need) => {
      if (typeof n === "string") return;
      if (need.get(n.permission) !== "write") need.set(n.permission, n.level);
    };
    const { rest, graphql } = callsInSource();
    for (const k of rest.keys()) add(REST[k] ?? "cli");
    for (const k of graphql.keys()) for (const n of GRAPHQL[k] ?? []) add(n);
    for (const e of manifest.default_events) {
      const permission = EVENT_PERMISSION[e];
      expect(permission, `the permission event ${e} needs`).toBeDefined();
      add(read(permission ?? ""));
    }
    expect(manifest.default_permissions).toEqual(Object.fromEntries([...need].sort()));
  });
});
