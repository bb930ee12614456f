/**
 * Arguments of `porchlight fn eval`, kpt fn eval's command line: `[PKG_PATH|-] [flags] [-- k=v ...]`.
 * Every kpt flag is accepted; those that only make sense for a container runtime are checked as kpt
 * checks them, then have no effect on builtin and exec functions.
 */
import type { Selector } from "../kptfile/schema.js";
import { type FlagSpec, parseFlags } from "./flags.js";
import {
  FUNCTION_RUNNER_USAGE,
  type FunctionRunnerFlag,
  type FunctionRunnerFlags,
} from "./function-runner-flags.js";

/** Parsed `fn eval` arguments. */
export interface EvalArgs {
  /** The package directory, or `-` for a ResourceList on stdin. */
  pkgPath: string;
  image: string | undefined;
  exec: string | undefined;
  tag: string | undefined;
  fnConfig: string | undefined;
  /** The `-- k=v` arguments, in order (the first may be a kind without `=`). */
  dataItems: string[];
  output: string | undefined;
  resultsDir: string | undefined;
  imagePrefix: string | undefined;
  network: boolean;
  mounts: string[];
  env: string[];
  asCurrentUser: boolean;
  includeMetaResources: boolean;
  allowWasm: boolean;
  truncateOutput: boolean;
  save: boolean;
  fnType: string | undefined;
  selector: Selector;
  exclusion: Selector;
  /** `--function-runner` and its companions, as given. */
  functionRunner: FunctionRunnerFlags;
  help: boolean;
}

/** Usage text of `porchlight fn eval`. */
export const EVAL_USAGE = `Usage: porchlight fn eval [PKG_PATH | -] [flags] [-- key=value ...]

Run one function on a package's resources (Kptfiles included), like \`kpt fn eval\`, and write the
result back; \`-\` reads a ResourceList on stdin and writes one to stdout. The arguments after \`--\`
become the function's functionConfig, a ConfigMap with that data.

Flags:
  -i, --image IMAGE               run this function image (builtin, or docker/podman)
      --exec COMMAND              run this executable as a function
      --fn-config FILE            the functionConfig (a file; in the package it is input too)
      --tag TAG                   semver constraint or tag for the image (recorded by --save)
  -o, --output VALUE              stdout (a ResourceList), unwrap (YAML), or a new directory
      --results-dir DIR           write the function's results to DIR/results.yaml
      --image-prefix PREFIX       registry for short image names (default $KPT_IMAGE_PREFIX or
                                  ghcr.io/kptdev/krm-functions-catalog)
      --match-api-version V, --match-kind K, --match-name N, --match-namespace NS,
      --match-labels k=v, --match-annotations k=v       run only on matching resources
      --exclude-api-version V, --exclude-kind K, --exclude-name N, --exclude-namespace NS,
      --exclude-labels k=v, --exclude-annotations k=v   never run on these resources
  -s, --save, -t, --type mutator|validator   add the function to the Kptfile pipeline
      --network, --mount, -e/--env, --as-current-user, --image-pull-policy P, --allow-alpha-wasm
                                  accepted as kpt accepts them (container runtime options)
${FUNCTION_RUNNER_USAGE}  -h, --help                      show this help
`;

const RUNNER_FLAGS: FunctionRunnerFlag[] = [
  "function-runner",
  "function-runner-images",
  "function-runner-timeout",
  "function-runner-tls",
  "function-runner-ca",
  "function-runner-cert",
  "function-runner-key",
];

const SPECS: FlagSpec[] = [
  { name: "image", short: "i", type: "string" },
  { name: "exec", type: "string" },
  { name: "tag", type: "string" },
  { name: "type", short: "t", type: "string" },
  { name: "save", short: "s", type: "bool" },
  { name: "fn-config", type: "string" },
  { name: "include-meta-resources", short: "m", type: "bool" },
  { name: "results-dir", type: "string" },
  { name: "network", type: "bool" },
  { name: "mount", type: "stringArray" },
  { name: "env", short: "e", type: "stringArray" },
  { name: "as-current-user", type: "bool" },
  { name: "image-pull-policy", type: "string" },
  { name: "allow-alpha-wasm", type: "bool" },
  { name: "image-prefix", type: "string" },
  { name: "output", short: "o", type: "string" },
  { name: "truncate-output", type: "bool" },
  { name: "help", short: "h", type: "bool" },
  ...RUNNER_FLAGS.map(
    (name): FlagSpec => ({ name, type: name === "function-runner-tls" ? "bool" : "string" }),
  ),
  ...["api-version", "kind", "name", "namespace"].flatMap((f): FlagSpec[] => [
    { name: `match-${f}`, type: "string" },
    { name: `exclude-${f}`, type: "string" },
  ]),
  ...["labels", "annotations"].flatMap((f): FlagSpec[] => [
    { name: `match-${f}`, type: "stringArray" },
    { name: `exclude-${f}`, type: "stringArray" },
  ]),
];

/** kpt's image pull policies (`--image-pull-policy`, case-insensitive). */
export const IMAGE_PULL_POLICIES = ["Always", "IfNotPresent", "Never"] as const;

/**
 * Checks an `--image-pull-policy` value as kpt's flag does.
 * @throws Error in pflag's words when it is not one of Always, IfNotPresent, Never.
 */
export function checkImagePullPolicy(value: string): void {
  if (!IMAGE_PULL_POLICIES.some((p) => p.toLowerCase() === value.toLowerCase())) {
    throw new Error(
      `invalid argument ${JSON.stringify(value)} for "--image-pull-policy" flag: must be one of: ${IMAGE_PULL_POLICIES.join(", ")}`,
    );
  }
}

/** kpt's `parseSelectorMap`: `k=v` items (the last wins). */
function selectorMap(items: string[] | undefined): Record<string, string> | undefined {
  if (!items || items.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const item of items) {
    const eq = item.indexOf("=");
    if (eq < 0) throw new Error(`invalid selector ${JSON.stringify(item)}: expected key=value`);
    out[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}

function selector(get: (f: string) => string | string[] | boolean | undefined, prefix: string): Selector {
  const s: Selector = {};
  const str = (f: string) => {
    const v = get(`${prefix}-${f}`);
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  const apiVersion = str("api-version");
  const kind = str("kind");
  const name = str("name");
  const namespace = str("namespace");
  const labels = selectorMap(get(`${prefix}-labels`) as string[] | undefined);
  const annotations = selectorMap(get(`${prefix}-annotations`) as string[] | undefined);
  if (apiVersion) s.apiVersion = apiVersion;
  if (kind) s.kind = kind;
  if (name) s.name = name;
  if (namespace) s.namespace = namespace;
  if (labels) s.labels = labels;
  if (annotations) s.annotations = annotations;
  return s;
}

/** Whether a selector sets nothing (kpt's `Selector.IsEmpty`). */
export function isEmptySelector(s: Selector): boolean {
  return Object.keys(s).length === 0;
}

/**
 * Parses argv (after `fn eval`).
 * @throws Error with kpt's message for bad flags, more than one package path, or a bad pull policy.
 */
export function parseEvalArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): EvalArgs {
  const { values, positional, afterDash } = parseFlags(argv, SPECS);
  const get = (f: string) => values.get(f);
  const str = (f: string) => {
    const v = get(f);
    return typeof v === "string" ? v : undefined;
  };
  const bool = (f: string) => get(f) === true;
  if (positional.length > 1) {
    throw new Error("0 or 1 arguments supported, function arguments go after '--'");
  }
  const pullPolicy = str("image-pull-policy");
  if (pullPolicy !== undefined) checkImagePullPolicy(pullPolicy);
  return {
    pkgPath: positional[0] ?? ".",
    image: str("image") || undefined,
    exec: str("exec") || undefined,
    tag: str("tag") || undefined,
    fnConfig: str("fn-config") || undefined,
    dataItems: afterDash ?? [],
    output: str("output") || undefined,
    resultsDir: str("results-dir") || undefined,
    imagePrefix: str("image-prefix") ?? env.KPT_IMAGE_PREFIX ?? undefined,
    network: bool("network"),
    mounts: (get("mount") as string[] | undefined) ?? [],
    env: (get("env") as string[] | undefined) ?? [],
    asCurrentUser: bool("as-current-user"),
    includeMetaResources: bool("include-meta-resources"),
    allowWasm: bool("allow-alpha-wasm"),
    truncateOutput: get("truncate-output") !== false,
    save: bool("save"),
    fnType: str("type") || undefined,
    selector: selector(get, "match"),
    exclusion: selector(get, "exclude"),
    functionRunner: Object.fromEntries(
      RUNNER_FLAGS.flatMap((name) => {
        const v = get(name);
        return v === undefined ? [] : [[name, String(v)]];
      }),
    ),
    help: bool("help"),
  };
}
