/**
 * Reading what the repository declares: the PackageVariants (PackageVariantSets expanded to their
 * targets in this repository) of the variants directory and the injectable resources of the
 * injectors directory, with the problems and notes the report shows.
 */
import type { RepoRef, TreeEntry } from "../../../github/port.js";
import type { UpstreamDeps } from "../../upgrade-plan.js";
import type { Injectable } from "../mutations.js";
import { PACKAGE_VARIANT_API_VERSION, type PackageVariant, parsePackageVariant } from "../package-variant.js";
import {
  expandVariantSet,
  PACKAGE_VARIANT_SET_API_VERSION,
  parsePackageVariantSet,
} from "../package-variant-set.js";
import { directoryProblems, dirOf, readYamlDir, type YamlItem } from "./yaml-dir.js";

/** The repository's declared variants and injectables, and what is wrong or worth a note. */
export interface VariantSources {
  variants: PackageVariant[];
  injectables: Injectable[];
  problems: string[];
  notes: string[];
}

/** The problem of a resource in the variants directory that porchlight does not reconcile. */
function notAVariant(file: string, data: unknown): string {
  const obj = (data ?? {}) as { apiVersion?: unknown; kind?: unknown };
  const what =
    typeof obj.kind === "string"
      ? `${String(obj.apiVersion ?? "")} ${obj.kind}`.trim()
      : "a document without kind";
  return `${file}: ${what} is not reconciled: this directory holds ${PACKAGE_VARIANT_API_VERSION} PackageVariant and ${PACKAGE_VARIANT_SET_API_VERSION} PackageVariantSet resources`;
}

/** Adds one document of the variants directory to `out` (a variant, a set's variants, or a problem). */
function addVariantItem(item: YamlItem, ownRepo: string, out: VariantSources): void {
  if (item.error) {
    out.problems.push(item.error);
    return;
  }
  try {
    const pv = parsePackageVariant(item.file, item.data);
    if (pv) out.variants.push(pv);
    const set = parsePackageVariantSet(item.file, item.data);
    if (set) {
      const expanded = expandVariantSet(set, ownRepo);
      out.variants.push(...expanded.variants);
      out.problems.push(...expanded.errors.map((e) => `${item.file}: ${e}`));
      if (expanded.elsewhere.length > 0) {
        out.notes.push(
          `${item.file}: PackageVariantSet ${set.name}: the targets in ${expanded.elsewhere.join(", ")} are reconciled by a copy of this set committed there (a variant never writes to another repository)`,
        );
      }
    }
    if (!pv && !set) out.problems.push(notAVariant(item.file, item.data));
  } catch (err) {
    out.problems.push(err instanceof Error ? err.message : String(err));
  }
}

/** An injector document as an {@link Injectable}, or undefined without apiVersion, kind and name. */
function injectableOf(data: unknown): Injectable | undefined {
  const obj = data as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } } | undefined;
  if (
    !obj ||
    typeof obj.apiVersion !== "string" ||
    typeof obj.kind !== "string" ||
    typeof obj.metadata?.name !== "string"
  )
    return undefined;
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata.name,
    data: obj as Record<string, unknown>,
  };
}

/** Reads the variants and injectors directories `deps.config.packageVariants` names from `entries`. */
export async function readVariantSources(options: {
  deps: UpstreamDeps;
  repo: RepoRef;
  entries: readonly TreeEntry[];
}): Promise<VariantSources> {
  const { deps, repo, entries } = options;
  const ownRepo = `${repo.owner}/${repo.repo}`;
  const variantsDir = dirOf(deps.config.packageVariants.directory);
  const injectorsDir = dirOf(deps.config.packageVariants.injectors);
  const out: VariantSources = {
    variants: [],
    injectables: [],
    problems: directoryProblems(entries, { directory: variantsDir, injectors: injectorsDir }),
    notes: [],
  };
  for (const item of await readYamlDir({ deps, repo, entries, dir: variantsDir })) {
    addVariantItem(item, ownRepo, out);
  }
  for (const item of await readYamlDir({ deps, repo, entries, dir: injectorsDir })) {
    const injectable = injectableOf(item.data);
    if (injectable) out.injectables.push(injectable);
  }
  return out;
}
