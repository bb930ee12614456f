/**
 * Schema of the repository configuration `.github/porchlight.yml` (zod 4). Every field is optional;
 * an absent file means all defaults. Unknown keys are an error, so a misspelt field is reported instead
 * of silently ignored.
 *
 * ```yaml
 * # .github/porchlight.yml
 * draftBranchPrefix: drafts/
 * pushOnFailure: Unrendered   # absent: the operator's PORCHLIGHT_PUSH_ON_FAILURE
 * deleteBranchOnPublish: true
 * directories: [catalog]
 * ```
 */
import { z } from "zod";

/** The schema; parse with `repoConfigSchema.safeParse(value)`, or better `parseRepoConfig` (./load.ts). */
export const repoConfigSchema = z.strictObject({
  /**
   * Branch prefix of Draft package revisions (Porch: `drafts/`). A push to `<prefix><package-path>/<workspace>`
   * is rendered; a pull request from such a branch proposes that revision. Default `drafts/`.
   */
  draftBranchPrefix: z
    .string()
    .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$/, "must be a branch prefix such as drafts/")
    .default("drafts/"),

  /**
   * What is committed to the draft branch when rendering fails (Porch's `--push-on-failure`):
   * `None` commits nothing, `Unrendered` the resources as pushed plus the Kptfile status,
   * `PartiallyRendered` the output of the steps that succeeded plus the status. A Kptfile annotated
   * `kpt.dev/save-on-render-failure: "true"` selects `PartiallyRendered` for that package, as in kpt.
   * When absent: the operator's default (`PORCHLIGHT_PUSH_ON_FAILURE`, itself `Unrendered` by default)
   * — the operator sets the default, the repository file overrides it.
   */
  pushOnFailure: z.enum(["None", "Unrendered", "PartiallyRendered"]).optional(),

  /**
   * Delete the draft branch once its pull request is merged and the revision is tagged (Porch removes
   * the draft when it publishes). Default `true`. A rejected (closed, unmerged) draft is never deleted.
   */
  /**
   * How the Kptfile `status` is written: `full` (conditions and renderStatus, kpt 1.0.0-beta.62 and
   * later) or `conditions` (what older kpt and Porch read). Absent: the operator's PORCHLIGHT_KPTFILE_STATUS.
   */
  kptfileStatus: z.enum(["full", "conditions"]).optional(),
  deleteBranchOnPublish: z.boolean().default(true),

  /**
   * Directories of the repository that hold packages (Porch's `Repository.spec.git.directory`, one entry
   * per directory). Paths are relative to the repository root; `/` (default) means the whole repository.
   * Draft branches, tags and changed files outside these directories are ignored.
   */
  directories: z
    .array(z.string().refine((d) => !d.split("/").includes(".."), "must not contain .."))
    .min(1)
    .default(["/"]),

  /**
   * Convert a pull request back to a GitHub draft pull request when one of its packages fails to render
   * (Porch refuses to propose such a revision). Default `true`.
   */
  convertFailingToDraft: z.boolean().default(true),

  /**
   * Fail the merge gate when a Kptfile readiness gate (`info.readinessGates[].conditionType`) has no
   * condition with status "True". Porch leaves this check to its clients; we enforce it. Default `true`.
   */
  enforceReadinessGates: z.boolean().default(true),

  /**
   * This is a deployment repository (Porch's `Repository.spec.deployment`): its packages are meant to be
   * applied, not cloned. Shown by `porchlight repo get`. Default `false` (a blueprint repository).
   */
  deployment: z.boolean().default(false),

  /**
   * Porch's PackageVariants of this repository: `directory` holds PackageVariant / PackageVariantSet
   * resources (read from the default branch only, never package content), `injectors` the resources
   * their `injectors` select. Defaults `package-variants/` and `package-variant-injectors/`.
   */
  packageVariants: z
    .strictObject({
      directory: z.string().default("package-variants/"),
      injectors: z.string().default("package-variant-injectors/"),
    })
    .default({ directory: "package-variants/", injectors: "package-variant-injectors/" }),

  /**
   * Upgrade pull requests of this repository's downstream packages. `autoMerge` (default `false`:
   * nothing is merged automatically): merge an upgrade pull request once `porchlight/render` passes
   * on its head and the upgrade overrides no local edit.
   */
  upgrades: z.strictObject({ autoMerge: z.boolean().default(false) }).default({ autoMerge: false }),

  /**
   * Keep a package dashboard issue in this repository (label `porchlight-dashboard`): its packages and
   * latest revisions, open drafts and proposals with their render verdict, the downstreams behind and
   * the failed upgrades. Default `false`.
   */
  dashboard: z.boolean().default(false),

  /**
   * The repositories that may use this repository's packages as their upstream (consent to
   * cross-repository reads): `owner/name`, `owner/*` for every repository of an owner, or `*` for every
   * repository the app is installed on. Default none: a private repository's packages are read only for
   * its own downstreams (and where the operator's `PORCHLIGHT_UPSTREAM_CONSENT` allows it); a public
   * repository needs no consent. Read from the upstream's default branch.
   */
  consumers: z
    .array(z.string().regex(/^(\*|[A-Za-z0-9-]+\/(\*|[A-Za-z0-9._-]+))$/, "must be owner/name, owner/* or *"))
    .default([]),
});

/** What `.github/porchlight.yml` says, with the schema's defaults (`pushOnFailure` may be absent). */
export type RepoConfigFile = z.infer<typeof repoConfigSchema>;

/** The configuration in effect: the file's, with the operator's `pushOnFailure` where the file has none. */
export type RepoConfig = Omit<RepoConfigFile, "pushOnFailure" | "kptfileStatus"> & {
  pushOnFailure: NonNullable<RepoConfigFile["pushOnFailure"]>;
  kptfileStatus: NonNullable<RepoConfigFile["kptfileStatus"]>;
};

/** The operator's defaults for fields a repository may override (`PORCHLIGHT_PUSH_ON_FAILURE`). */
export interface OperatorDefaults {
  pushOnFailure?: RepoConfig["pushOnFailure"];
  kptfileStatus?: RepoConfig["kptfileStatus"];
}

/** The configuration in effect for `file` (parsed) under the operator's `defaults`. */
export function effectiveConfig(file: RepoConfigFile, defaults: OperatorDefaults = {}): RepoConfig {
  return {
    ...file,
    pushOnFailure: file.pushOnFailure ?? defaults.pushOnFailure ?? "Unrendered",
    kptfileStatus: file.kptfileStatus ?? defaults.kptfileStatus ?? "full",
  };
}

/** The configuration used when `.github/porchlight.yml` is absent and the operator set nothing. */
export const DEFAULT_REPO_CONFIG: RepoConfig = effectiveConfig(repoConfigSchema.parse({}));
