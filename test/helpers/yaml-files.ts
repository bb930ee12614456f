import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/** Every `*.yaml`, `*.yml` and `Kptfile` under `dir` (sorted, .git and node_modules skipped), appended to `out`. */
export function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== ".git" && name !== "node_modules") yamlFiles(p, out);
    } else if (/\.ya?ml$/.test(name) || name === "Kptfile") out.push(p);
  }
  return out;
}
