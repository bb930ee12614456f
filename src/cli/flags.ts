/**
 * Command-line flags parsed the way kpt's cobra/pflag parses them: `--name value`, `--name=value`,
 * `-n value`, `-nvalue`, `-n=value`; boolean flags take no separate value (`--flag`, `--flag=false`);
 * string-array flags may repeat; flags and positional arguments mix until `--`, after which every
 * argument is passed through. Errors are worded as pflag words them.
 */

/** One flag: its long name, optional one-letter shorthand and value type. */
export interface FlagSpec {
  name: string;
  short?: string;
  type: "bool" | "string" | "stringArray";
}

/** What was parsed: flag values by long name, positional arguments, and everything after `--`. */
export interface ParsedFlags {
  values: Map<string, boolean | string | string[]>;
  positional: string[];
  /** Arguments after `--` (undefined when there was no `--`). */
  afterDash: string[] | undefined;
}

/** Go's `strconv.ParseBool`. */
function parseBool(text: string, flag: string): boolean {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(text)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(text)) return false;
  throw new Error(
    `invalid argument ${JSON.stringify(text)} for ${JSON.stringify(flag)} flag: strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`,
  );
}

/**
 * Parses `argv` against `specs`.
 * @throws Error with pflag's message for an unknown flag, a missing value or a bad boolean.
 */
export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[]): ParsedFlags {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));
  const values = new Map<string, boolean | string | string[]>();
  const positional: string[] = [];
  const set = (spec: FlagSpec, shown: string, value: string | undefined): void => {
    if (spec.type === "bool") {
      values.set(spec.name, value === undefined ? true : parseBool(value, shown));
    } else if (spec.type === "stringArray") {
      const list = (values.get(spec.name) as string[] | undefined) ?? [];
      values.set(spec.name, [...list, value ?? ""]);
    } else {
      values.set(spec.name, value ?? "");
    }
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") return { values, positional, afterDash: argv.slice(i + 1) };
    const takeNext = (shown: string): string => {
      if (i + 1 >= argv.length) throw new Error(`flag needs an argument: ${shown}`);
      i += 1;
      return argv[i];
    };
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const spec = byName.get(name);
      if (!spec) throw new Error(`unknown flag: --${name}`);
      const inline = eq < 0 ? undefined : arg.slice(eq + 1);
      if (spec.type === "bool" || inline !== undefined) set(spec, `--${name}`, inline);
      else set(spec, `--${name}`, takeNext(`--${name}`));
    } else if (arg.startsWith("-") && arg !== "-") {
      const letter = arg[1];
      const spec = byShort.get(letter);
      if (!spec) throw new Error(`unknown shorthand flag: '${letter}' in ${arg}`);
      const rest = arg.slice(2);
      const inline = rest === "" ? undefined : rest.startsWith("=") ? rest.slice(1) : rest;
      if (spec.type === "bool") set(spec, `-${letter}`, inline);
      else set(spec, `-${letter}`, inline ?? takeNext(`'${letter}' in -${letter}`));
    } else {
      positional.push(arg);
    }
  }
  return { values, positional, afterDash: undefined };
}
