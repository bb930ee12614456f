/**
 * What a script of the `starlark` function sees besides the universe: the predeclared `ctx` struct
 * (`ctx.resource_list`, `ctx.open_api`, `ctx.environment`, as kyaml's starlark runtime builds it) and the
 * modules `load` gives (the catalog's starlib set and `krmfn.star`).
 *
 * Sandbox: `ctx.environment` holds only what the host passes (on the server: nothing, or the operator's
 * allow-list); no module reads files, the network or the process. `http.star` and `xlsx.star` load, but
 * their functions fail (no network); `bsoup.star`, `geo.star`, `html.star` and `zipfile.star` load, but
 * their functions fail as not provided. Any other module name fails to load, naming it.
 */
import { openApiDocument } from "../../../schemas/kubernetes.js";
import {
  Builtin,
  DEFAULT_CONSTRUCTOR,
  Dict,
  fromBytes,
  type Iter,
  jsonModule,
  makeModule,
  mathModule,
  StarlarkError,
  Struct,
  SValue,
  type Thread,
  timeModule,
  toStarlark,
  typeName,
  type Value,
} from "../../../starlark/index.js";
import { base64Module } from "../../../starlark/lib/base64.js";
import { csvModule } from "../../../starlark/lib/csv.js";
import { hashModule } from "../../../starlark/lib/hash.js";
import { reModule } from "../../../starlark/lib/re.js";
import { yamlModule } from "../../../starlark/lib/yaml.js";

/**
 * `ctx.open_api`: the Kubernetes OpenAPI document (src/schemas, `{swagger, info, definitions}`), turned
 * into Starlark values on first use (it is large) — kyaml's `LazyInitializationOpenapi`. Reads as a dict.
 */
class LazyOpenApi extends SValue {
  private value: Dict | undefined;
  private frozen = false;
  private dict(): Dict {
    if (!this.value) {
      this.value = toStarlark(openApiDocument()) as Dict;
      if (this.frozen) this.value.freeze();
    }
    return this.value;
  }
  typeName(): string {
    return "dict";
  }
  override repr(path: SValue[]): string {
    return this.dict().repr(path);
  }
  override truth(): boolean {
    return true;
  }
  override hashKey(): never {
    throw new StarlarkError("unhashable type: dict");
  }
  override freeze(): void {
    this.frozen = true;
    this.value?.freeze();
  }
  override get(k: Value): Value | undefined {
    return this.dict().get(k);
  }
  override has(k: Value): boolean {
    return this.dict().get(k) !== undefined;
  }
  override len(): number {
    return this.dict().len();
  }
  override iterate(): Iter {
    return this.dict().iterate();
  }
  override items(): [Value, Value][] {
    return this.dict().items();
  }
}

/** Builds the `ctx` struct a script sees. `environment`: names and values the host allows (often none). */
export function makeContext(resourceList: Value, environment: Readonly<Record<string, string>>): Struct {
  return new Struct(DEFAULT_CONSTRUCTOR, [
    ["resource_list", resourceList],
    ["open_api", new LazyOpenApi()],
    ["environment", toStarlark({ ...environment })],
  ]);
}

// ---- krmfn.star ----

/** The fields of a resource dict krmfn matches on ("" when absent, as the SDK's getters). */
function field(fn: string, resource: Value, path: readonly string[]): string {
  if (!(resource instanceof Dict))
    throw new StarlarkError(`${fn}: expected a resource (dict), got ${typeName(resource)}`);
  let v: Value | undefined = resource;
  for (const key of path) {
    v = v instanceof Dict ? v.get(key) : undefined;
    if (v === undefined) return "";
  }
  return typeof v === "string" ? fromBytes(v) : "";
}

function stringArg(fn: string, i: number, v: Value): string {
  if (typeof v !== "string")
    throw new StarlarkError(`${fn}: for parameter ${i + 1}: got ${typeName(v)}, want string`);
  return fromBytes(v);
}

function positional(fn: string, args: Value[], kwargs: [string, Value][] | null, n: number): void {
  if (kwargs && kwargs.length > 0) throw new StarlarkError(`${fn}: unexpected keyword arguments`);
  if (args.length !== n) {
    throw new StarlarkError(`${fn}: got ${args.length} arguments, want ${n}`);
  }
}

/** The catalog's `krmfn` module: `match_gvk(r, apiVersion, kind)`, `match_name(r, name)`, `match_namespace(r, ns)`. */
export const krmfnModule = makeModule("krmfn", {
  match_gvk: new Builtin("match_gvk", (_th, args, kwargs) => {
    positional("match_gvk", args, kwargs, 3);
    const apiVersion = stringArg("match_gvk", 1, args[1]!);
    const kind = stringArg("match_gvk", 2, args[2]!);
    return (
      field("match_gvk", args[0]!, ["apiVersion"]) === apiVersion &&
      field("match_gvk", args[0]!, ["kind"]) === kind
    );
  }),
  match_name: new Builtin("match_name", (_th, args, kwargs) => {
    positional("match_name", args, kwargs, 2);
    return field("match_name", args[0]!, ["metadata", "name"]) === stringArg("match_name", 1, args[1]!);
  }),
  match_namespace: new Builtin("match_namespace", (_th, args, kwargs) => {
    positional("match_namespace", args, kwargs, 2);
    return (
      field("match_namespace", args[0]!, ["metadata", "namespace"]) ===
      stringArg("match_namespace", 1, args[1]!)
    );
  }),
});

// ---- modules without a host here ----

function refusing(qualified: string, why: string): Builtin {
  return new Builtin(qualified.slice(qualified.lastIndexOf(".") + 1), () => {
    throw new StarlarkError(`${qualified}: ${why}`);
  });
}

const NO_NETWORK = "starlark functions have no network access in porchlight";
const NOT_PROVIDED = (module: string) =>
  `the ${module} module is not provided by porchlight's starlark function`;

function refusingModule(name: string, members: readonly string[], why: string): Value {
  return makeModule(name, Object.fromEntries(members.map((m) => [m, refusing(`${name}.${m}`, why)])));
}

function refusingStruct(name: string, members: readonly string[], why: string): Value {
  return new Struct(
    DEFAULT_CONSTRUCTOR,
    members.map((m) => [m, refusing(`${name}.${m}`, why)] as [string, Value]),
  );
}

/** Module name → what `load` binds, as the catalog's loader (starlib v0.5 + krmfn) provides them. */
const MODULES: ReadonlyMap<string, () => ReadonlyMap<string, Value>> = new Map([
  ["encoding/base64.star", () => new Map([["base64", base64Module]])],
  ["encoding/csv.star", () => new Map([["csv", csvModule]])],
  ["encoding/json.star", () => new Map([["json", jsonModule]])],
  ["encoding/yaml.star", () => new Map([["yaml", yamlModule]])],
  ["hash.star", () => new Map([["hash", hashModule]])],
  ["math.star", () => new Map([["math", mathModule]])],
  ["re.star", () => new Map([["re", reModule]])],
  ["time.star", () => new Map([["time", timeModule]])],
  ["krmfn.star", () => new Map([["krmfn", krmfnModule]])],
  [
    "http.star",
    () =>
      new Map([
        ["http", refusingStruct("http", ["delete", "get", "options", "patch", "post", "put"], NO_NETWORK)],
      ]),
  ],
  ["xlsx.star", () => new Map([["xlsx", refusingStruct("xlsx", ["get_url"], NO_NETWORK)]])],
  ["bsoup.star", () => new Map([["bsoup", refusingModule("bsoup", ["parseHtml"], NOT_PROVIDED("bsoup"))]])],
  [
    "geo.star",
    () =>
      new Map([
        [
          "geo",
          refusingModule(
            "geo",
            ["Line", "MultiPolygon", "Point", "Polygon", "intersects", "parseGeoJSON", "within"],
            NOT_PROVIDED("geo"),
          ),
        ],
      ]),
  ],
  ["html.star", () => new Map([["html", refusing("html.html", NOT_PROVIDED("html"))]])],
  ["zipfile.star", () => new Map([["ZipFile", refusing("zipfile.ZipFile", NOT_PROVIDED("zipfile"))]])],
]);

/** The names scripts can `load`, sorted. */
export const LOADABLE_MODULES: readonly string[] = [...MODULES.keys()].sort();

/** The thread's `load`: the module's bindings, or an error naming the module and what can be loaded. */
export function loadModule(_thread: Thread, module: string): ReadonlyMap<string, Value> {
  const make = MODULES.get(fromBytes(module));
  if (!make) {
    throw new Error(
      `module not provided by porchlight's starlark function (it provides ${LOADABLE_MODULES.join(", ")})`,
    );
  }
  return make();
}
