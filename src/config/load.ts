/**
 * Loading `.github/porchlight.yml`: parse, validate with the zod schema, and turn any problem into one
 * readable message that names the file and the field, so the caller can report it as a failed
 * `porchlight/render` check instead of crashing.
 *
 * Where the file is read from matters: the handlers read it with Probot's `context.config(...)`, which
 * fetches `.github/porchlight.yml` from the repository's DEFAULT branch (no `ref`; when the repository has
 * none, from the owner's `.github` repository, Probot's organization-wide default). That is on purpose:
 * a pull request must not be able to change how it is judged (e.g. switch off readiness gates or change
 * the draft prefix in the same PR it wants merged). Probot's own convention, kept here.
 */
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { effectiveConfig, type OperatorDefaults, type RepoConfig, repoConfigSchema } from "./schema.js";

/** Path of the configuration file in the repository, as named in messages. */
export const CONFIG_PATH = ".github/porchlight.yml";

/** Outcome of loading: the configuration, or one message for the user. */
export type ConfigResult =
  | { ok: true; config: RepoConfig }
  | {
      ok: false;
      message: string;
      /** The file's `draftBranchPrefix` when it is usable, so the error can be reported on draft pushes. */
      draftBranchPrefix?: string;
    };

/** Where the file is and the operator's defaults (the repository file overrides them). */
export interface ConfigSource {
  /** Path named in messages; default {@link CONFIG_PATH}. */
  file?: string;
  defaults?: OperatorDefaults;
}

function prefixHint(raw: unknown): { draftBranchPrefix?: string } {
  const value =
    raw !== null && typeof raw === "object" ? (raw as Record<string, unknown>).draftBranchPrefix : undefined;
  if (value === undefined) return {};
  const parsed = repoConfigSchema.shape.draftBranchPrefix.safeParse(value);
  return parsed.success ? { draftBranchPrefix: parsed.data } : {};
}

function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`))
    .join("");
}

function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  if (issue.code === "unrecognized_keys") {
    const where = issue.path.length > 0 ? ` in "${fieldName(issue.path)}"` : "";
    return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}${where}`;
  }
  let value: unknown = raw;
  for (const key of issue.path) {
    value =
      value !== null && typeof value === "object" ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  }
  const got = value === undefined ? "" : ` (got ${JSON.stringify(value)})`;
  return `field "${fieldName(issue.path)}": ${issue.message}${got}`;
}

/**
 * Validates an already-parsed YAML value (what `context.config` returns: an object, or `null` when the
 * file is absent) and applies defaults: the schema's, and the operator's `source.defaults` for fields the
 * file leaves out (the repository file overrides the operator). Never throws. The message looks like
 * `.github/porchlight.yml: field "pushOnFailure": Invalid option: expected one of "None"|... (got "Later")`;
 * several problems are joined with `; `.
 */
export function parseRepoConfig(raw: unknown, source: ConfigSource = {}): ConfigResult {
  const file = source.file ?? CONFIG_PATH;
  if (raw === null || raw === undefined)
    return { ok: true, config: effectiveConfig(repoConfigSchema.parse({}), source.defaults) };
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return { ok: false, message: `${file}: must be a YAML mapping of settings, got ${JSON.stringify(raw)}` };
  }
  const parsed = repoConfigSchema.safeParse(raw);
  if (parsed.success) return { ok: true, config: effectiveConfig(parsed.data, source.defaults) };
  const problems = parsed.error.issues.map((issue) => describeIssue(issue, raw));
  return { ok: false, message: `${file}: ${problems.join("; ")}`, ...prefixHint(raw) };
}

/**
 * Reads and validates the configuration with `read` (in the app: `() => context.config("porchlight.yml")`,
 * default branch only — see the module comment). A read that throws (YAML syntax error, GitHub error
 * other than 404) becomes `{ok: false}` with the error's message; it is never rethrown.
 */
export async function loadRepoConfig(
  read: () => Promise<unknown>,
  source: ConfigSource = {},
): Promise<ConfigResult> {
  let raw: unknown;
  try {
    raw = await read();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      message: `${source.file ?? CONFIG_PATH}: cannot be read: ${message.split("\n")[0]}`,
    };
  }
  return parseRepoConfig(raw, source);
}

/**
 * The configuration from the text a job read (the port's snapshot: the repository's file, else the
 * owner's `.github` repository's — Probot's organization-wide fallback; `undefined` = neither has one).
 * YAML syntax errors become `{ok: false}` naming the file and the line. Never throws.
 */
export function configFromText(text: string | undefined, source: ConfigSource = {}): ConfigResult {
  if (text === undefined) return parseRepoConfig(null, source);
  return loadRepoConfigSync(() => parseYaml(text) as unknown, source);
}

function loadRepoConfigSync(read: () => unknown, source: ConfigSource): ConfigResult {
  let raw: unknown;
  try {
    raw = read();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `${source.file ?? CONFIG_PATH}: cannot be read: ${message.split("\n")[0]}` };
  }
  return parseRepoConfig(raw, source);
}
