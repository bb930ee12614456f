/**
 * Generated block YAML for the fast reader's property test: nested mappings and sequences (wide and
 * compact), scalars of every style the fast reader reads (and some it must refuse), comments and
 * blank lines in every place, odd columns now and then.
 */
import fc from "fast-check";

type Tree = { map: Array<[string, Tree]> } | { seq: Tree[] } | { scalar: string[] };

const KEYS = ["a", "name", "k b", "'q'", '"d"', "1", "true", "<<", "x-y", "é"];
/** Scalars as lines: the first goes after `key: ` / `- `, the rest on lines indented past it. */
const SCALARS: string[][] = [
  ["v"],
  ["1"],
  ["null"],
  ["~"],
  ["-x"],
  ["a:b"],
  ["two words"],
  ["a #b"],
  ["a# b"],
  ["'it''s'"],
  ["''"],
  ['"t\\tb\\u00e9"'],
  ['"\\q"'],
  ['""'],
  ["{}"],
  ["[]"],
  ["[1]"],
  ["[a, 'b', \"c d\", 1.5, ]"],
  ["{k: v, 'q': 1, \"e\": ~}"],
  ["[ x ,y]"],
  ["{a: [b]}"],
  ["[a,", "b]"],
  ["[a: b]"],
  ["{a, b}"],
  ["[a:b, c]"],
  ["[-x, a-b]"],
  ["&x v"],
  ["first", "second"],
  ["first", "", "third"],
  ['"multi', 'line"'],
  ['"esc\\', 'aped"'],
  ["'one", "", "two'"],
  ["|", "lit", "", " more"],
  ["|-", "x"],
  ["|+", "y", ""],
  [">", "p", "q", "", "r"],
  [">-", "f", "  g"],
  ["|2", "  two"],
  ["| # c", "z"],
  ["|"],
  ["|", "a\tb", "\tc"],
  [">", "\tp", "q", " \tr"],
  ["x\ty"],
  ['"t', '\tu"'],
];

const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree; map: Tree; seq: Tree; scalar: Tree }>((tie) => ({
  node: fc.oneof({ depthSize: "small" }, tie("scalar"), tie("map"), tie("seq")),
  scalar: fc.constantFrom(...SCALARS).map((s) => ({ scalar: s })),
  map: fc
    .array(fc.tuple(fc.constantFrom(...KEYS), tie("node")), { minLength: 1, maxLength: 4 })
    .map((m) => ({ map: m })),
  seq: fc.array(tie("node"), { minLength: 1, maxLength: 4 }).map((s) => ({ seq: s })),
})).node;

const COMMENTS = ["# c", "#", "# two  ", "", "", "# x: y"];

/** Prints a tree as lines, decorated by the dice. */
class Printer {
  lines: string[] = [];
  private i = 0;
  constructor(private readonly dice: number[]) {}

  roll(n: number): number {
    return this.dice.length === 0 ? 0 : this.dice[this.i++ % this.dice.length] % n;
  }

  /** Maybe a block of comment and blank lines before a line at `col`. */
  comments(col: number): void {
    if (this.roll(4) !== 0) return;
    const n = 1 + this.roll(3);
    const at = this.roll(6) === 0 ? Math.max(0, col + (this.roll(2) ? 2 : -2)) : col;
    for (let k = 0; k < n; k++) {
      const text = COMMENTS[this.roll(COMMENTS.length)];
      this.lines.push(text === "" ? " ".repeat(this.roll(2) * col) : " ".repeat(at) + text);
    }
  }

  lineComment(): string {
    return this.roll(5) === 0 ? ` ${COMMENTS[this.roll(3)]}` : "";
  }

  /** `node` after `prefix` (a key's `key:` or `- `) on a line at `col`, nested at `inner`. */
  value(prefix: string, node: Tree, col: number, inner: number): void {
    if ("scalar" in node) {
      const [first, ...rest] = node.scalar;
      if (prefix.endsWith(":") && this.roll(6) === 0) {
        // The scalar on its own line below its key, maybe after comments.
        this.lines.push(`${prefix}${this.lineComment()}`);
        this.comments(inner);
        this.lines.push(`${" ".repeat(inner)}${first}${rest.length === 0 ? this.lineComment() : ""}`);
        for (const r of rest) this.lines.push(r === "" ? "" : " ".repeat(inner) + r);
        return;
      }
      this.lines.push(`${prefix} ${first}${rest.length === 0 ? this.lineComment() : ""}`);
      for (const r of rest) this.lines.push(r === "" ? "" : " ".repeat(inner) + r);
      return;
    }
    this.lines.push(`${prefix}${this.lineComment()}`);
    const at = "seq" in node && this.roll(2) === 0 && !prefix.endsWith("-") ? col : inner;
    this.node(node, at);
    // Comments below the collection's last line, at its column or past it (feet, when a line left
    // of them follows).
    if (this.roll(3) === 0)
      for (let k = 1 + this.roll(2); k > 0; k--)
        this.lines.push(`${" ".repeat(at + 2 * this.roll(2))}# f${k}`);
  }

  node(node: Tree, col: number): void {
    const pad = " ".repeat(col);
    if ("map" in node)
      for (const [k, v] of node.map) {
        this.comments(col);
        this.value(`${pad}${k}:`, v, col, col + 2);
      }
    else if ("seq" in node)
      for (const item of node.seq) {
        this.comments(col);
        if ("map" in item && this.roll(3) !== 0) {
          const [[k, v], ...rest] = item.map;
          this.value(`${pad}- ${k}:`, v, col + 2, col + 4);
          this.node({ map: rest }, col + 2);
        } else this.value(`${pad}-`, item, col, col + 2);
      }
    else this.value(pad.slice(1), node, col, col + 2);
  }
}

/** A document of block YAML (sometimes after `---`, sometimes indented, sometimes with comments at its end). */
export const blockYaml: fc.Arbitrary<string> = fc
  .tuple(tree, fc.array(fc.nat(), { minLength: 1, maxLength: 40 }))
  .map(([t, dice]) => {
    const p = new Printer(dice);
    if (p.roll(5) === 0) p.lines.push("---");
    p.comments(0);
    p.node("scalar" in t ? { map: [["k", t]] } : t, p.roll(7) === 0 ? 2 : 0);
    if (p.roll(6) === 0) p.lines.push("# end");
    return `${p.lines.join("\n")}\n`;
  });
