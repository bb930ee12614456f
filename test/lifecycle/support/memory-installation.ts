/**
 * Several in-memory repositories behind ONE GitHub port, as an installation token sees them: each
 * method goes to the {@link FakeRepo} its `repo` names. Repositories added with `public: true` are
 * readable (like a public repository on the same host) but are not among the installation's
 * repositories. For upstream → downstream use-case tests (upgrades across repositories).
 */
import type { GitHubPort, RepoRef } from "../../../src/github/port.js";
import { FakeRepo } from "./fake-repo.js";
import { memoryPort } from "./memory-port.js";

/** An installation of in-memory repositories. */
export class MemoryInstallation {
  readonly repos = new Map<string, { fake: FakeRepo; port: GitHubPort; public: boolean }>();
  /** Every port call, as `owner/repo method`. */
  readonly calls: string[] = [];
  /** Title and body of each pull request the app opened or edited, by `owner/repo#number`. */
  readonly pullTexts = new Map<string, { title: string; body: string }>();
  readonly port: GitHubPort;

  constructor() {
    const route =
      (name: keyof GitHubPort) =>
      (options: { repo: RepoRef }): unknown => {
        const entry = this.entry(options.repo);
        this.calls.push(`${options.repo.owner}/${options.repo.repo} ${name}`);
        return (entry.port[name] as (o: unknown) => unknown)(options);
      };
    const byRepo = [
      "readSnapshot",
      "readBranchHead",
      "readRepository",
      "readFile",
      "readTree",
      "readPathObjects",
      "readBlobs",
      "compareFiles",
      "listCommitFiles",
      "commitFiles",
      "listBranches",
      "createBranch",
      "deleteBranch",
      "listTags",
      "listTagCommits",
      "createTag",
      "createCheckRun",
      "updateCheckRun",
      "listCheckRuns",
      "listPullRequestFiles",
      "listPullRequests",
      "listBranchPullRequests",
      "mergePullRequest",
      "createPullRequest",
      "updatePullRequest",
      "listComments",
      "createComment",
      "updateComment",
      "listIssues",
      "createIssue",
      "updateIssue",
      "ensureRuleset",
    ] as const;
    const port = Object.fromEntries(byRepo.map((name) => [name, route(name)])) as unknown as GitHubPort;
    const create = port.createPullRequest;
    port.createPullRequest = async (options) => {
      const created = await create(options);
      this.pullTexts.set(`${options.repo.owner}/${options.repo.repo}#${created.number}`.toLowerCase(), {
        title: options.title,
        body: options.body,
      });
      return created;
    };
    const update = port.updatePullRequest;
    port.updatePullRequest = async (options) => {
      await update(options);
      const key = `${options.repo.owner}/${options.repo.repo}#${options.number}`.toLowerCase();
      const text = this.pullTexts.get(key) ?? { title: "", body: "" };
      this.pullTexts.set(key, {
        title: options.title ?? text.title,
        body: options.body ?? text.body,
      });
    };
    const read = port.readRepository;
    // GitHub's visibility: repositories added `public` are public, the installation's private.
    port.readRepository = async (options) => ({
      ...(await read(options)),
      visibility: this.entry(options.repo).public ? "public" : "private",
    });
    port.convertPullRequestToDraft = async () => undefined;
    port.listInstallations = async () => [1];
    port.listInstallationRepositories = async () =>
      [...this.repos.values()]
        .filter((r) => !r.public)
        .map((r) => ({ owner: r.fake.owner, repo: r.fake.repo }));
    port.listOwnerRepositories = async ({ owner }) =>
      [...this.repos.values()]
        .filter((r) => !r.public && r.fake.owner === owner)
        .map((r) => ({ owner: r.fake.owner, repo: r.fake.repo }));
    this.port = port;
  }

  /** Adds repository `owner/name` holding `files` on `main`. */
  add(fullName: string, files: Record<string, string>, options: { public?: boolean } = {}): FakeRepo {
    const [owner, repo] = fullName.split("/");
    const fake = new FakeRepo(files);
    // FakeRepo names itself acme/pkgs; this installation holds several repositories.
    Object.assign(fake, { owner, repo });
    this.repos.set(fullName.toLowerCase(), {
      fake,
      port: memoryPort(fake).port,
      public: options.public ?? false,
    });
    return fake;
  }

  /** The repository `owner/name`. */
  repo(fullName: string): FakeRepo {
    const entry = this.repos.get(fullName.toLowerCase());
    if (!entry) throw new Error(`no repository ${fullName}`);
    return entry.fake;
  }

  /** The title and body of pull request `number` of `fullName`. */
  pullText(fullName: string, number: number): { title: string; body: string } {
    const text = this.pullTexts.get(`${fullName}#${number}`.toLowerCase());
    if (!text) throw new Error(`no pull request text for ${fullName}#${number}`);
    return text;
  }

  private entry(repo: RepoRef) {
    const entry = this.repos.get(`${repo.owner}/${repo.repo}`.toLowerCase());
    if (!entry) throw new Error(`memory installation: no repository ${repo.owner}/${repo.repo}`);
    return entry;
  }
}
