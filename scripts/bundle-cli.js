// Bundles the compiled CLI (dist/src/cli/main.js, from tsc) with its dependencies into dist/cli/
// (`npm run build` runs it after tsc). Node then opens a handful of files at start-up instead of
// several hundred. Dynamic imports stay separate chunks, so a command, a builtin function or execa
// is still loaded only when used. bin/porchlight.js prefers the bundle while it is newer than
// dist/src (a later tsc-only build falls back to the unbundled modules).
import { readFileSync, rmSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// Chunk names carry content hashes: start from an empty directory so old chunks do not pile up.
rmSync(path.join(root, "dist/cli"), { recursive: true, force: true });

/**
 * Node's built-in modules through `require` instead of `import`. Importing a built-in from ESM builds
 * its ESM facade, which reads every export — `node:fs`'s lazy `ReadStream` getter loads the whole
 * streams stack (~15 ms CPU on Node 24 for `import "node:fs"`, 0.5 ms for `require`). esbuild's
 * CommonJS interop reads an export only when it is used, so a render pays for what it touches.
 */
const builtinsByRequire = {
  name: "builtins-by-require",
  setup(b) {
    const names = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    b.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) =>
      names.has(args.path) && args.namespace !== "builtin-require"
        ? // One copy of the few-line shim per importing module: a shim shared by modules of
          // different chunks would become a chunk of its own, a file Node resolves and links.
          {
            path: `${args.path}?${args.kind}?${path.relative(root, args.importer)}`,
            namespace: "builtin-require",
          }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "builtin-require" }, (args) => {
      const [name, kind, importer] = args.path.split("?");
      const named = kind === "import-statement" ? namedShim(name, path.join(root, importer)) : undefined;
      return {
        contents: lazyBuiltins.has(name.replace(/^node:/, ""))
          ? lazyModule(name)
          : (named ?? `module.exports = require(${JSON.stringify(name)});`),
        loader: "js",
      };
    });
  },
};

/**
 * Built-ins a render without a pipeline does not touch, and whose loading is not free: `child_process`
 * alone pulls in net, dgram and the streams stack (~10 ms CPU). A chunk that imports one of them
 * requires it when the chunk is evaluated, so each is replaced by an object of getters (one per
 * export of the module as the building Node has it) that requires the module at the first read.
 * Only modules whose exports are functions, classes and constants: nothing assigns through them.
 */
const lazyBuiltins = new Set([
  "assert",
  "child_process",
  "crypto",
  "dgram",
  "diagnostics_channel",
  "dns",
  "fs/promises",
  "http",
  "https",
  "inspector",
  "net",
  "os",
  "perf_hooks",
  "querystring",
  "readline",
  "stream",
  "stream/promises",
  "string_decoder",
  "timers/promises",
  "tty",
  "v8",
  "vm",
  "worker_threads",
  "zlib",
]);
const buildRequire = createRequire(import.meta.url);

/** CommonJS source for `name` whose exports read the real module on first use. */
function lazyModule(name) {
  const keys = Object.getOwnPropertyNames(buildRequire(name)).filter((k) => k !== "__esModule");
  return [
    "let real;",
    `const load = () => (real ??= require(${JSON.stringify(name)}));`,
    `for (const key of ${JSON.stringify(keys)}) {`,
    "  Object.defineProperty(module.exports, key, { enumerable: true, get: () => load()[key] });",
    "}",
  ].join("\n");
}

/**
 * An ES-module shim for built-in `name` exporting what `importerFile` imports from it (its default
 * and named imports), each read once from the required module. esbuild turns an ES import of a
 * CommonJS shim into `__toESM`, which defines a getter per export of the module for every importing
 * module (~0.2 ms each for `node:fs`, tens of them per start). Undefined (keep the CommonJS shim) for
 * a namespace import, an import of an accessor property (which must stay lazy) and `process` (whose
 * fields change).
 */
function namedShim(name, importerFile) {
  if (name.replace(/^node:/, "") === "process") return undefined;
  let source;
  try {
    source = readFileSync(importerFile, "utf8");
  } catch {
    return undefined;
  }
  const quoted = name.replace(/[/]/g, "\\/");
  const names = new Set();
  let withDefault = false;
  for (const m of source.matchAll(new RegExp(`\\bimport\\s+([^;"']*?)\\s*from\\s*["']${quoted}["']`, "g"))) {
    const clause = m[1];
    if (clause.includes("*")) return undefined;
    const braces = /\{([^}]*)\}/.exec(clause);
    const defaultName = clause
      .replace(/\{[^}]*\}/, "")
      .replace(/,/g, "")
      .trim();
    if (defaultName !== "") withDefault = true;
    for (const part of braces?.[1].split(",") ?? []) {
      const imported = part.trim().split(/\s+as\s+/)[0];
      if (imported) names.add(imported);
    }
  }
  if (names.size === 0 && !withDefault) return undefined;
  const real = buildRequire(name);
  for (const key of names) {
    const desc = Object.getOwnPropertyDescriptor(real, key);
    if (!desc || !("value" in desc) || !/^[A-Za-z_$][\w$]*$/.test(key)) return undefined;
  }
  return [
    `const m = require(${JSON.stringify(name)});`,
    ...[...names].map((key) => `export const ${key} = m.${key};`),
    withDefault ? "export default m;" : "",
  ].join("\n");
}

/**
 * The `yaml` package through its ES-module build (the one it gives browsers; the same sources) instead
 * of its CommonJS one: esbuild then hoists its ~70 modules into plain scope and drops what is unused,
 * where the CommonJS form evaluates every module wrapper when it is loaded. The one difference between
 * the builds, how a warning is reported, is put back to the Node build's (process.emitWarning).
 */
const yamlAsModules = {
  name: "yaml-as-modules",
  setup(b) {
    b.onLoad({ filter: /[\\/]yaml[\\/]browser[\\/]dist[\\/]log\.js$/ }, () => ({
      contents: [
        "function debug(logLevel, ...messages) {",
        "  if (logLevel === 'debug') console.log(...messages);",
        "}",
        "function warn(logLevel, warning) {",
        "  if (logLevel === 'debug' || logLevel === 'warn') {",
        "    if (typeof process.emitWarning === 'function') process.emitWarning(warning);",
        "    else console.warn(warning);",
        "  }",
        "}",
        "export { debug, warn };",
      ].join("\n"),
      loader: "js",
    }));
  },
};

/**
 * Packages a render without a pipeline may never use, each bundled as one file of its own,
 * dist/cli/<name>.cjs, which the CLI requires the first time it uses the package: `yaml` (200 KB; our
 * own YAML layer reads and writes packages), `ignore` (30 KB, for a `.krmignore`).
 */
const lazyPackages = {
  yaml: {
    entry: path.join(path.dirname(buildRequire.resolve("yaml/package.json")), "browser/dist/index.js"),
    plugins: [yamlAsModules],
  },
  ignore: { entry: buildRequire.resolve("ignore"), plugins: [] },
};
/** Each lazy package's export names (as its file has them). */
const lazyExports = {};
for (const [name, { entry, plugins }] of Object.entries(lazyPackages)) {
  const outfile = path.join(root, `dist/cli/${name}.cjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node22",
    logLevel: "warning",
    plugins,
  });
  lazyExports[name] = Object.keys(buildRequire(outfile));
}

/**
 * Each module's import of a lazy package becomes an import of a few-line module of its own (one per
 * importing module, so that no shim becomes a chunk of its own) whose bindings are stand-ins until one
 * of them is used: the first call, `new`, or property read (`Scalar.PLAIN`) of any of them requires
 * the package's file and sets every binding of that module to the package's own export. From then on
 * the importing module uses the package's functions and classes themselves. A stand-in forwards what
 * it is asked (so a stand-in kept in a variable still works). The names are those the compiled module
 * imports (all the package's exports for a namespace import).
 */
const lazyPackageFiles = {
  name: "lazy-package-files",
  setup(b) {
    const names = Object.keys(lazyPackages).join("|");
    b.onResolve({ filter: new RegExp(`^(${names})$`) }, (args) => ({
      path: `${args.path}?${path.relative(root, args.importer)}`,
      namespace: "lazy-package",
    }));
    b.onResolve({ filter: new RegExp(`^\\./(${names})\\.cjs$`) }, (args) => ({
      path: args.path,
      external: true,
    }));
    b.onLoad({ filter: /.*/, namespace: "lazy-package" }, (args) => {
      const [name, importer] = args.path.split("?");
      return {
        contents: lazyPackageModule(name, importedNames(name, path.join(root, importer))),
        loader: "js",
      };
    });
  },
};

/** The names `importerFile` imports from package `name` ("default" for a default import, all for `*`). */
function importedNames(name, importerFile) {
  const source = readFileSync(importerFile, "utf8");
  const exports = lazyExports[name];
  const names = new Set();
  const imports = new RegExp(`\\b(?:import|export)\\s+([^;"']*?)\\s*from\\s*["']${name}["']`, "g");
  for (const m of source.matchAll(imports)) {
    const clause = m[1].trim();
    if (clause.includes("*")) return ["default", ...exports];
    const braces = /\{([^}]*)\}/.exec(clause);
    if (
      clause
        .replace(/\{[^}]*\}/, "")
        .replace(/,/g, "")
        .trim() !== ""
    )
      names.add("default");
    for (const part of braces?.[1].split(",") ?? []) {
      const imported = part.trim().split(/\s+as\s+/)[0];
      if (imported) names.add(imported);
    }
  }
  for (const n of names)
    if (n !== "default" && !exports.includes(n)) throw new Error(`${name} has no export ${n}`);
  return [...names];
}

/**
 * ES-module source for the bindings `names` of lazy package `name`, each a stand-in until the
 * package's file is required (`default`: its exports object, as both packages' ES-module default).
 */
function lazyPackageModule(name, names) {
  const local = (n) => `${name}_${n}`;
  const exported = (n) => (n === "default" ? "real" : `real.${n}`);
  return [
    "let real;",
    "const load = () => {",
    "  if (real === undefined) {",
    `    real = require(${JSON.stringify(`./${name}.cjs`)});`,
    ...names.map((n) => `    ${local(n)} = ${exported(n)};`),
    "  }",
    "  return real;",
    "};",
    'const pick = (key) => (key === "default" ? load() : load()[key]);',
    "const standIn = (key) => {",
    "  const p = new Proxy(function () {}, {",
    "    apply: (_, self, args) => Reflect.apply(pick(key), self, args),",
    "    construct: (_, args, target) => Reflect.construct(pick(key), args, target === p ? pick(key) : target),",
    "    get: (_, prop) => pick(key)[prop],",
    "  });",
    "  return p;",
    "};",
    ...names.map((n) => `let ${local(n)} = standIn(${JSON.stringify(n)});`),
    `export { ${names.map((n) => `${local(n)} as ${n}`).join(", ")} };`,
  ].join("\n");
}

await build({
  entryPoints: { porchlight: path.join(root, "dist/src/cli/main.js") },
  outdir: path.join(root, "dist/cli"),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22",
  logLevel: "warning",
  plugins: [lazyPackageFiles, builtinsByRequire],
  // CommonJS dependencies (yaml) call require(); give the ESM bundle one.
  banner: {
    js: 'import { createRequire as __porchlightCreateRequire } from "node:module"; const require = __porchlightCreateRequire(import.meta.url);',
  },
});
