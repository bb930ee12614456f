/**
 * kpt's builtin `gen-pkg-context` (what `kpt pkg get --for-deployment` and Porch's clone into a deployment
 * repository run): the package context `package-context.yaml`, ConfigMap `kptfile.kpt.dev` marked
 * local-config, whose `data.name` is the package's name (its root Kptfile's `metadata.name`) and, when
 * Porch gives one, `data.package-path` (the PackageRevision's package name). An existing package context
 * is replaced, as kpt drops every `kptfile.kpt.dev` ConfigMap before writing the new one. Pure.
 */
import { type FileTree, KPTFILE } from "./files.js";
import { parseKptfile } from "./kptfile.js";

/** The package context file, next to the root Kptfile. */
export const PACKAGE_CONTEXT_FILE = "package-context.yaml";
/** The package context ConfigMap's name. */
export const PACKAGE_CONTEXT_NAME = "kptfile.kpt.dev";

/** A YAML scalar as kyaml writes a ConfigMap data value (quoted only when it must be). */
function scalar(value: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(value) &&
    !/^(true|false|yes|no|on|off|null|~|[0-9.eE+-]+)$/i.test(value)
    ? value
    : JSON.stringify(value);
}

/** The text kpt writes for a package context with `data` (keys in order). */
export function packageContextText(data: Readonly<Record<string, string>>): string {
  const lines = Object.keys(data)
    .sort()
    .map((k) => `  ${k}: ${scalar(data[k] ?? "")}`);
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${PACKAGE_CONTEXT_NAME}\n  annotations:\n    config.kubernetes.io/local-config: "true"\ndata:\n${lines.join("\n")}\n`;
}

/**
 * The package with its package context generated: `data.name` from the root Kptfile's name,
 * `data.package-path` when `packagePath` is given (Porch). Throws the Kptfile's parse error when the
 * root Kptfile does not read; a package without a Kptfile is returned as it is.
 */
export function generatePackageContext(files: FileTree, options: { packagePath?: string } = {}): FileTree {
  const kptfile = files.get(KPTFILE);
  if (!kptfile) return files;
  const name = parseKptfile(KPTFILE, kptfile).kptfile.metadata?.name ?? "";
  const data: Record<string, string> = { name };
  if (options.packagePath) data["package-path"] = options.packagePath;
  const out = new Map(files);
  out.set(PACKAGE_CONTEXT_FILE, Buffer.from(packageContextText(data), "utf8"));
  return out;
}
