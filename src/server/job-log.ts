/**
 * Structured logs (Probot's pino logger) that carry where the work comes from: every webhook is logged
 * with its delivery id, event, repository, branch and sha; every line a job logs carries the job's
 * delivery, repository, branch (or pull request, sha) and kind. No payload body, token or setting.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** Fields a job's log lines carry. */
export type LogFields = Record<string, string | number>;

/** What the use-cases log with (Probot's pino logger fits). */
export interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A pino-like logger: `child(fields)` and object-first calls. */
export interface StructuredLog {
  child(fields: LogFields): StructuredLog;
  info(fields: LogFields, message: string): void;
  warn(fields: LogFields, message: string): void;
  error(fields: LogFields, message: string): void;
}

const current = new AsyncLocalStorage<LogFields>();

/**
 * Drops repeated keys from the fields a pino logger adds to every line, keeping the last value: Probot's
 * `app.log` is a child `{ name: "probot" }` of a logger already named `probot`, and pino writes both,
 * so every JSON line carried `"name":"probot"` twice (strict JSON consumers refuse duplicate keys).
 * Only `log` itself changes (children Probot made before are left alone); no logger (a Probot not yet
 * loaded), one that is not pino's, or whose fields cannot be read, is left as it is.
 */
export function dropRepeatedLogFields(log: object | undefined): void {
  if (typeof log !== "object" || log === null) return;
  const symbol = Object.getOwnPropertySymbols(log).find((s) => s.description === "pino.chindings");
  if (!symbol) return;
  const record = log as Record<symbol, unknown>;
  const fields = record[symbol];
  if (typeof fields !== "string" || !fields.startsWith(",")) return;
  try {
    const unique = JSON.stringify(JSON.parse(`{${fields.slice(1)}}`));
    if (unique.length > 2) record[symbol] = `,${unique.slice(1, -1)}`;
  } catch {
    // not the shape pino writes: leave it
  }
}

/**
 * Makes every child logger made from now on under `log`'s root (Probot's base pino logger) drop
 * repeated keys as {@link dropRepeatedLogFields} does: Probot names its children (`http`, `event`,
 * `octokit`) under a logger named `probot`, and pino wrote `"name":"probot","name":"http"` on each of
 * their lines; the child's own value is kept (the last). Children made earlier keep their fields, but
 * the loggers made from them (pino-http's per request, Probot's per event) are fixed, since a pino
 * child looks `child` up on its parents. Anything that is not a pino logger is left alone.
 */
export function dropRepeatedFieldsInChildren(log: object | undefined): void {
  const chindings = (o: object) =>
    Object.getOwnPropertySymbols(o).find((s) => s.description === "pino.chindings");
  if (typeof log !== "object" || log === null || !chindings(log)) return;
  let root = log;
  for (let up = Object.getPrototypeOf(root); up && chindings(up); up = Object.getPrototypeOf(up)) root = up;
  const original = (root as { child?: unknown }).child;
  if (typeof original !== "function" || (original as { dedupes?: boolean }).dedupes) return;
  const child = function (this: object, ...args: unknown[]) {
    const made = original.apply(this, args) as object;
    dropRepeatedLogFields(made);
    return made;
  };
  Object.defineProperty(child, "dedupes", { value: true });
  Object.defineProperty(root, "child", { value: child, writable: true, configurable: true });
}

/**
 * Logs the request at debug instead of info: pino-http (Probot's request log) writes one info line per
 * response through `res.log`, the request's own child logger; health probes and scrapes would fill
 * the log. Only this request's logger changes.
 */
export function logRequestAtDebug(res: object): void {
  const log = (res as { log?: { info?: unknown; debug?: unknown } }).log;
  if (log && typeof log.debug === "function") log.info = log.debug;
}

/** Runs `fn` with `fields` on every line {@link contextLog} writes meanwhile (across awaits). */
export function withLogFields<T>(fields: LogFields, fn: () => Promise<T>): Promise<T> {
  return current.run({ ...current.getStore(), ...fields }, fn);
}

/** A {@link Log} that writes through `log`, adding the fields of the job it runs in. */
export function contextLog(log: StructuredLog): Log {
  const write = (level: "info" | "warn" | "error", message: string) =>
    log[level](current.getStore() ?? {}, message);
  return {
    info: (message) => write("info", message),
    warn: (message) => write("warn", message),
    error: (message) => write("error", message),
  };
}

/** The log fields of a job (plain JSON; see src/lifecycle/work-queue.ts): where its work is. */
export function jobFields(job: Record<string, unknown>, attempt: number): LogFields {
  const fields: LogFields = { job: String(job.kind), attempt };
  const repo = job.repo as { owner?: string; repo?: string } | undefined;
  if (repo?.owner && repo.repo) fields.repository = `${repo.owner}/${repo.repo}`;
  if (typeof job.delivery === "string") fields.delivery = job.delivery;
  if (typeof job.installationId === "number") fields.installation = job.installationId;
  if (typeof job.branch === "string") fields.branch = job.branch;
  if (typeof job.headBranch === "string") fields.branch = job.headBranch;
  if (typeof job.number === "number") fields.pullRequest = job.number;
  const hint = job.hint as { sha?: string } | undefined;
  const sha = job.sha ?? job.headSha ?? hint?.sha;
  if (typeof sha === "string") fields.sha = sha;
  return fields;
}

/** The log fields of a webhook: delivery, event, repository, branch and sha where the payload has them. */
export function webhookFields(id: string, name: string, payload: Record<string, unknown>): LogFields {
  const fields: LogFields = { delivery: id, event: name };
  const p = payload as {
    action?: string;
    repository?: { full_name?: string };
    ref?: string;
    after?: string;
    pull_request?: { head?: { ref?: string; sha?: string } };
    check_run?: { head_sha?: string; check_suite?: { head_branch?: string | null } };
    check_suite?: { head_sha?: string; head_branch?: string | null };
    merge_group?: { head_sha?: string; head_ref?: string };
  };
  if (p.action) fields.action = p.action;
  if (p.repository?.full_name) fields.repository = p.repository.full_name;
  const branch =
    (p.ref?.startsWith("refs/heads/") ? p.ref.slice("refs/heads/".length) : undefined) ??
    p.pull_request?.head?.ref ??
    p.check_suite?.head_branch ??
    p.check_run?.check_suite?.head_branch ??
    p.merge_group?.head_ref;
  if (branch) fields.branch = branch;
  const sha =
    p.after ??
    p.pull_request?.head?.sha ??
    p.check_run?.head_sha ??
    p.check_suite?.head_sha ??
    p.merge_group?.head_sha;
  if (sha) fields.sha = sha;
  return fields;
}
