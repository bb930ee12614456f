/**
 * Arguments of `porchlight render`, kpt fn render's flags: `[PKG_PATH]`, `--results-dir DIR`,
 * `--allow-exec`, `--truncate-output[=false]`, `--image-pull-policy P` (checked, no effect), `--image-prefix P`,
 * `-o, --output <dir>|stdout|unwrap`, `--push-on-failure None|Unrendered|PartiallyRendered`, `--help`.
 */
import type { PushOnFailure } from "../engine/types.js";
import { checkImagePullPolicy } from "./eval-args.js";
import {
  FUNCTION_RUNNER_USAGE,
  type FunctionRunnerFlags,
  isFunctionRunnerFlag,
} from "./function-runner-flags.js";

/** Parsed render arguments. */
export interface RenderArgs {
  pkgPath: string;
  resultsDir: string | undefined;
  allowExec: boolean;
  truncateOutput: boolean;
  output: string | undefined;
  pushOnFailure: PushOnFailure | undefined;
  /** `--image-prefix`, else `KPT_IMAGE_PREFIX`, else undefined (kpt's default registry). */
  imagePrefix: string | undefined;
  /** `--function-runner` and its companions, as given. */
  functionRunner: FunctionRunnerFlags;
  help: boolean;
}

/** Usage text of `porchlight render`. */
export const RENDER_USAGE = `Usage: porchlight render [PKG_PATH] [flags]

Render a package in place, like \`kpt fn render\`: run the Kptfile pipelines of the package and its
subpackages (mutators, then validators) and write the resources and the Kptfile status back.

Flags:
  --results-dir DIR          write the function results to DIR/results.yaml
  --allow-exec               allow \`exec:\` functions (running binaries is a privileged operation)
  --truncate-output=false    do not truncate the stderr of failing functions
  --image-pull-policy P      Always, IfNotPresent or Never: checked as kpt checks it, no effect
  --image-prefix PREFIX      registry for short image names (default $KPT_IMAGE_PREFIX or
                             ghcr.io/kptdev/krm-functions-catalog)
  -o, --output VALUE         write to a new directory, or to stdout (ResourceList) or unwrap (YAML)
  --push-on-failure POLICY   what to store when rendering fails: None, Unrendered (default),
                             PartiallyRendered
${FUNCTION_RUNNER_USAGE}  -h, --help                 show this help
`;

function parseBool(value: string | undefined, flag: string): boolean {
  if (value === undefined || value === "true") return true;
  if (value === "false") return false;
  throw new Error(`invalid value ${JSON.stringify(value)} for ${flag}: expected true or false`);
}

/**
 * Applies one flag `name` (its `inline` value after `=`, or `value()` reading the next argument) to `args`;
 * false when `arg` is not a flag (a positional argument). Throws on an unknown flag or a bad value.
 */
function applyFlag(
  args: RenderArgs,
  arg: string,
  name: string,
  inline: string | undefined,
  value: () => string,
): boolean {
  switch (name) {
    case "-h":
    case "--help":
      args.help = true;
      return true;
    case "--results-dir":
      args.resultsDir = value();
      return true;
    case "--allow-exec":
      args.allowExec = parseBool(inline, name);
      return true;
    case "--truncate-output":
      args.truncateOutput = parseBool(inline, name);
      return true;
    case "--allow-alpha-wasm":
    case "--allow-network":
      parseBool(inline, name);
      return true;
    case "--image-pull-policy":
      checkImagePullPolicy(value());
      return true;
    case "--image-prefix":
      args.imagePrefix = value();
      return true;
    case "-o":
    case "--output":
      args.output = value();
      return true;
    case "--push-on-failure": {
      const v = value();
      if (v !== "None" && v !== "Unrendered" && v !== "PartiallyRendered") {
        throw new Error(
          `invalid --push-on-failure ${JSON.stringify(v)}: expected None, Unrendered or PartiallyRendered`,
        );
      }
      args.pushOnFailure = v;
      return true;
    }
    case "--function-runner-tls":
      args.functionRunner["function-runner-tls"] = String(parseBool(inline, name));
      return true;
    default:
      if (name.startsWith("--") && isFunctionRunnerFlag(name.slice(2))) {
        args.functionRunner[name.slice(2) as keyof FunctionRunnerFlags] = value();
        return true;
      }
      if (arg.startsWith("-") && arg !== "-") throw new Error(`unknown flag: ${arg}`);
      return false;
  }
}

/** Parses argv (after `render`). Throws an Error with a user-facing message on bad input. */
export function parseRenderArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): RenderArgs {
  const args: RenderArgs = {
    pkgPath: ".",
    resultsDir: undefined,
    allowExec: false,
    truncateOutput: true,
    output: undefined,
    pushOnFailure: undefined,
    imagePrefix: env.KPT_IMAGE_PREFIX || undefined,
    functionRunner: {},
    help: false,
  };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf("=");
    const name = arg.startsWith("-") && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = arg.startsWith("-") && eq > 0 ? arg.slice(eq + 1) : undefined;
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined) throw new Error(`flag needs an argument: ${name}`);
      return next;
    };
    if (!applyFlag(args, arg, name, inline, value)) positional.push(arg);
  }
  if (positional.length > 1) throw new Error(`accepts at most 1 arg(s), received ${positional.length}`);
  if (positional[0] !== undefined) args.pkgPath = positional[0];
  return args;
}
