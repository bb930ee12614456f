/**
 * `porchlight fn list`: the builtin functions, from the builtin registry (new builtins appear by
 * themselves), each with its catalog image and the catalog version whose behaviour it follows.
 * `-o json` prints them as a JSON array.
 */
import { DEFAULT_REGISTRY } from "../engine/image.js";
import { BUILTIN_LOADERS } from "../runtimes/builtin/registry.js";
import { UsageError } from "./commands.js";
import { columns } from "./table.js";

/** One row of the list. */
export interface BuiltinInfo {
  name: string;
  image: string;
  catalogVersion: string;
}

/** The builtins, sorted by name (each builtin's module is loaded to read its catalog version). */
export async function builtinList(): Promise<BuiltinInfo[]> {
  const list = await Promise.all(
    Object.entries(BUILTIN_LOADERS).map(async ([name, load]) => ({
      name,
      image: `${DEFAULT_REGISTRY}/${name}`,
      catalogVersion: (await load()).catalogVersion ?? "-",
    })),
  );
  return list.sort((a, b) => a.name.localeCompare(b.name));
}

/** Runs `porchlight fn list [-o json]`; resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  const json =
    (argv[0] === "-o" && argv[1] === "json") || argv[0] === "-o=json" || argv[0] === "--output=json";
  if (argv.length > 0 && !json) throw new UsageError(`unexpected arguments: ${argv.join(" ")}`, "fn list");
  const list = await builtinList();
  if (json) {
    process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(
    columns([["NAME", "CATALOG IMAGE", "FOLLOWS"], ...list.map((f) => [f.name, f.image, f.catalogVersion])]),
  );
  return 0;
}
