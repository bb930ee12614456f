/**
 * The files of a new package, as `kpt pkg init` writes them and Porch's init task creates them: the
 * Kptfile (local-config, `info.description` / `keywords` / `site`), a README and the package context
 * (`package-context.yaml`, `data.name` = the package's name). Pure.
 */
import { packageContextText } from "./package-context.js";

/** What kpt's `pkg init` flags set. */
export interface InitInfo {
  /** `--description`; kpt's default "sample description". */
  description?: string | undefined;
  /** `--keywords`, comma-separated. */
  keywords?: string | undefined;
  /** `--site`. */
  site?: string | undefined;
}

function kptfileText(name: string, info: InitInfo): string {
  const lines: string[] = [];
  if (info.site) lines.push(`  site: ${info.site}`);
  lines.push(`  description: ${info.description ?? "sample description"}`);
  const keywords = (info.keywords ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);
  if (keywords.length) lines.push("  keywords:", ...keywords.map((k) => `    - ${k}`));
  return `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n  annotations:\n    config.kubernetes.io/local-config: "true"\ninfo:\n${lines.join("\n")}\n`;
}

/** The new package `name`'s files, relative to its directory, in the order kpt writes them. */
export function initFiles(name: string, info: InitInfo = {}): [string, string][] {
  return [
    ["Kptfile", kptfileText(name, info)],
    ["README.md", `# ${name}\n\n## Description\n${info.description ?? "sample description"}\n`],
    ["package-context.yaml", packageContextText({ name })],
  ];
}
