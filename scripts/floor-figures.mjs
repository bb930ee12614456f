#!/usr/bin/env node
/**
 * The figures of the house's floors, read from the code with the TypeScript compiler API:
 * - imports that run back up: rooms are `src/<folder>/` (and `src/lifecycle/<folder>/`, `src/lifecycle`'s own
 *   files as one ground room, `src/index.ts`); the room graph is ordered so that the fewest room-to-room
 *   arrows point up (exact, per strongly connected part), and those arrows are counted;
 * - file circles: strongly connected sets of files (type-only imports included);
 * - sibling imports: imports from one use-case folder (`src/lifecycle/<folder>/`, and `src/variants/` while
 *   it stood apart) into another;
 * - functions over 60 lines and files over 300 lines, outside `src/starlark/` (the interpreter is exempt).
 *
 * Usage: `node scripts/floor-figures.mjs [--list]` (`--list` names every function and file over its limit);
 * `--check` (run by `npm run lint`) applies the floors' rules below instead (imports; who reads `process.env`) and
 * exits 1 when one breaks.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SRC = path.join(ROOT, "src");
const FUNCTION_LIMIT = 60;
const FILE_LIMIT = 300;
const list = process.argv.includes("--list");
const check = process.argv.includes("--check");

const below = (...folders) => new RegExp(`^src/(${folders.join("|")})/`);
const any = (...patterns) => ({ test: (path) => patterns.some((p) => p.test(path)) });
const INDEX = /^src\/index\.ts$/;
const USE_CASE = /^src\/lifecycle\/[^/]+\//;
/** The floors, as README's folder map states them: [name, from, to, (from, to) => extra test]. */
const RULES = [
  [
    "jobs/ is imported by src/index.ts alone",
    { test: (f) => !INDEX.test(f) && !f.startsWith("src/jobs/") },
    below("jobs"),
  ],
  [
    "a use-case folder never imports a sibling",
    USE_CASE,
    USE_CASE,
    (f, t) => f.split("/")[2] !== t.split("/")[2],
  ],
  ["lifecycle's ground files import no use-case folder", /^src\/lifecycle\/[^/]+\.ts$/, USE_CASE],
  [
    "lifecycle never imports the process, the dispatcher, handlers, the CLI or a runtime",
    /^src\/lifecycle\//,
    any(below("server", "jobs", "handlers", "cli", "runtimes"), INDEX),
  ],
  [
    "handlers only make jobs",
    /^src\/handlers\//,
    any(USE_CASE, below("server", "jobs", "engine", "runtimes", "cli")),
  ],
  [
    "server/ implements ports and calls no use-case",
    /^src\/server\//,
    any(USE_CASE, below("jobs", "handlers", "cli")),
  ],
  [
    "engine, runtimes, kptfile, krm, yaml and the interpreters know no app",
    below("engine", "runtimes", "kptfile", "krm", "yaml", "starlark", "rego", "schemas"),
    any(below("github", "handlers", "lifecycle", "jobs", "server", "cli", "report", "config"), INDEX),
  ],
  [
    "report/ is pure",
    /^src\/report\//,
    any(below("lifecycle", "jobs", "server", "handlers", "cli", "runtimes"), INDEX),
  ],
  [
    "github/ is the port and its adapter",
    /^src\/github\//,
    any(below("lifecycle", "jobs", "handlers", "server", "cli", "engine", "runtimes"), INDEX),
  ],
];

/**
 * The files that may read `process.env`: the app's one reader, and the CLI (its own composition root,
 * reading its documented variables: GITHUB_TOKEN, KPT_IMAGE_PREFIX, KRM_DISABLE_ATTRIBUTION, ...). Three
 * pass-throughs that read no setting: git's child environment, an exec function's (its PATH confined), and
 * the YAML layer's A/B switch of the benchmarks (BENCHMARKS.md).
 */
const ENV_READERS = [
  /^src\/config\/environment\.ts$/,
  /^src\/cli\//,
  /^src\/pkg\/git-fetcher\.ts$/,
  /^src\/runtimes\/exec\/exec-runtime\.ts$/,
  /^src\/krm\/yaml-io\.ts$/,
];

/**
 * README's folder map (Development, "Layout"): row path -> the rooms its "may import" column names
 * (`lifecycle/*` + slash = every use-case folder; "nothing of ours" = none). The column is the rule.
 */
function readFolderMap() {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const map = new Map();
  for (const line of readme.split("\n")) {
    const cells = line.split(" | ");
    if (cells.length < 3 || !/^\| `src\//.test(line)) continue;
    const room = /`(src\/[^`]+?)\/?`/.exec(cells[0])?.[1];
    const allowed = [...cells[cells.length - 1].matchAll(/`([a-z*/-]+?)\/`/g)].map((m) => `src/${m[1]}`);
    if (room) map.set(room, allowed);
  }
  return map;
}

/** Whether README's folder map lets room `from` import room `to`. */
function mayImport(map, from, to) {
  const allowed = map.get(from) ?? [];
  return allowed.includes(to) || (allowed.includes("src/lifecycle/*") && /^src\/lifecycle\/[^/]+$/.test(to));
}

function sourceFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out.sort();
}

const rel = (file) => path.relative(ROOT, file).split(path.sep).join("/");
const exempt = (file) => rel(file).startsWith("src/starlark/");

/** The room of a file: `src/index.ts`, `src/lifecycle` (its own files), `src/lifecycle/<folder>`, `src/<folder>`. */
function roomOf(file) {
  const parts = rel(file).split("/");
  if (parts.length === 2) return parts.join("/");
  if (parts[1] === "lifecycle") return parts.length === 3 ? "src/lifecycle" : `src/lifecycle/${parts[2]}`;
  return `src/${parts[1]}`;
}

/** Use-case folders: `src/lifecycle/<folder>/`, and `src/variants/` while it stood outside lifecycle. */
function useCaseOf(file) {
  const parts = rel(file).split("/");
  if (parts[1] === "lifecycle" && parts.length > 3) return parts.slice(0, 3).join("/");
  if (parts[1] === "variants") return "src/variants";
  return undefined;
}

function resolveImport(from, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, ".ts"), `${base}.ts`, path.join(base, "index.ts")]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function readFile(file) {
  const text = fs.readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const imports = [];
  const functions = [];
  const envReads = [];
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) imports.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      imports.push(node.arguments[0].text);
    }
    if (
      ts.isPropertyAccessExpression(node) &&
      node.name.text === "env" &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "process"
    )
      envReads.push(lineOf(node.getStart(source)));
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1;
      functions.push({ name: functionName(node), line: lineOf(node.getStart(source)), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0), imports, functions, envReads };
}

function functionName(node) {
  if (node.name && ts.isIdentifier(node.name)) {
    const owner =
      node.parent && ts.isClassLike(node.parent) && node.parent.name ? `${node.parent.name.text}.` : "";
    return owner + node.name.text;
  }
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return "(anonymous)";
}

/** Tarjan's strongly connected components of `graph` (Map node → Set node). */
function components(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const strong = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const part = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      out.push(part.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) strong(v);
  return out;
}

/** The fewest arrows of `part` that must point up in any order of its rooms (exact up to 9 rooms). */
function upwardArrows(part, graph) {
  const inside = new Set(part);
  const edges = part.flatMap((a) =>
    [...(graph.get(a) ?? [])].filter((b) => inside.has(b)).map((b) => [a, b]),
  );
  if (part.length > 9) throw new Error(`a circle of ${part.length} rooms is too large to order exactly`);
  let best = { count: Infinity, arrows: [] };
  const permute = (order, rest) => {
    if (rest.length === 0) {
      const position = new Map(order.map((room, i) => [room, i]));
      const up = edges.filter(([a, b]) => position.get(a) > position.get(b));
      if (up.length < best.count) best = { count: up.length, arrows: up };
      return;
    }
    for (let i = 0; i < rest.length; i++)
      permute([...order, rest[i]], [...rest.slice(0, i), ...rest.slice(i + 1)]);
  };
  permute([], part);
  return best.arrows;
}

const files = sourceFiles(SRC);
const read = new Map(files.map((f) => [f, readFile(f)]));
const fileGraph = new Map();
const roomGraph = new Map();
const siblingImports = [];
for (const [file, info] of read) {
  const targets = new Set();
  for (const specifier of info.imports) {
    const target = resolveImport(file, specifier);
    if (!target || !read.has(target)) continue;
    targets.add(target);
    const [from, to] = [roomOf(file), roomOf(target)];
    if (from !== to) {
      if (!roomGraph.has(from)) roomGraph.set(from, new Set());
      roomGraph.get(from).add(to);
    }
    const [caseFrom, caseTo] = [useCaseOf(file), useCaseOf(target)];
    if (caseFrom && caseTo && caseFrom !== caseTo) siblingImports.push(`${rel(file)} -> ${rel(target)}`);
  }
  fileGraph.set(file, targets);
}

const circles = components(fileGraph).filter((part) => part.length > 1);

if (check) {
  const broken = [];
  for (const [file, targets] of fileGraph) {
    for (const target of targets) {
      const [f, t] = [rel(file), rel(target)];
      for (const [name, from, to, extra] of RULES) {
        if (from.test(f) && to.test(t) && (!extra || extra(f, t))) broken.push(`${name}: ${f} -> ${t}`);
      }
    }
  }
  // The Starlark interpreter's value types and its thread are one circle on purpose.
  const interpreter = (f) => /^src\/starlark\//.test(rel(f));
  for (const part of circles.filter((p) => !p.every(interpreter)))
    broken.push(`no file circle: ${part.map(rel).join(" <-> ")}`);
  const folderMap = readFolderMap();
  const rooms = new Set([...read.keys()].map(roomOf));
  for (const room of [...rooms].sort())
    if (!folderMap.has(room)) broken.push(`README's folder map has a row for every folder: ${room} has none`);
  const seen = new Set();
  for (const [file, targets] of fileGraph) {
    for (const target of targets) {
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from === to || !folderMap.has(from) || mayImport(folderMap, from, to)) continue;
      const key = `${from} -> ${to}`;
      if (seen.has(key)) continue;
      seen.add(key);
      broken.push(`README's folder map: ${from} may not import ${to} (${rel(file)} -> ${rel(target)})`);
    }
  }
  for (const [file, info] of read) {
    if (ENV_READERS.some((allowed) => allowed.test(rel(file)))) continue;
    for (const line of info.envReads)
      broken.push(
        `only config/environment.ts reads process.env (the app's environment, once): ${rel(file)}:${line}`,
      );
  }
  for (const line of broken) console.error(`floor broken — ${line}`);
  console.log(
    `floors: ${RULES.length + 2} rules and README's folder map (${folderMap.size} rows) over ${files.length} files, ${broken.length} broken`,
  );
  process.exit(broken.length > 0 ? 1 : 0);
}
const upward = components(roomGraph)
  .filter((part) => part.length > 1)
  .flatMap((part) => upwardArrows(part, roomGraph));
const longFunctions = [...read]
  .filter(([file]) => !exempt(file))
  .flatMap(([file, info]) =>
    info.functions.filter((f) => f.lines > FUNCTION_LIMIT).map((f) => ({ file: rel(file), ...f })),
  );
const longFiles = [...read].filter(([file, info]) => !exempt(file) && info.lines > FILE_LIMIT);
const exemptCircles = circles.filter((part) => part.every(exempt));

console.log(`imports that run back up (room arrows): ${upward.length}`);
for (const [a, b] of upward) console.log(`  ${a} -> ${b}`);
console.log(`file circles: ${circles.length} (${exemptCircles.length} inside src/starlark/)`);
for (const part of circles) console.log(`  ${part.map(rel).join(" <-> ")}`);
console.log(`use-case folders importing a sibling (imports): ${siblingImports.length}`);
for (const line of siblingImports) console.log(`  ${line}`);
console.log(`functions over ${FUNCTION_LIMIT} lines outside src/starlark/: ${longFunctions.length}`);
if (list) for (const f of longFunctions) console.log(`  ${f.file}:${f.line} ${f.name} ${f.lines}`);
console.log(`files over ${FILE_LIMIT} lines outside src/starlark/: ${longFiles.length}`);
if (list) for (const [file, info] of longFiles) console.log(`  ${rel(file)} ${info.lines}`);
