/**
 * The starlib host modules (src/starlark/lib: base64, csv, yaml, hash, re) as scripts use them, with the
 * results and error messages of qri-io/starlib over Go's libraries.
 */
import { describe, expect, it } from "vitest";
import * as starlark from "../../src/starlark/index.js";
import { base64Module } from "../../src/starlark/lib/base64.js";
import { csvModule } from "../../src/starlark/lib/csv.js";
import { hashModule } from "../../src/starlark/lib/hash.js";
import { reModule } from "../../src/starlark/lib/re.js";
import { yamlModule } from "../../src/starlark/lib/yaml.js";

const modules = { base64: base64Module, csv: csvModule, hash: hashModule, re: reModule, yaml: yamlModule };

/** Evaluates `expr` after `setup` with the modules predeclared; returns str() of the value. */
function ev(expr: string, setup = ""): string {
  const thread = new starlark.Thread({ name: "t.star" });
  const globals = starlark.execFile(thread, "t.star", `${setup}\n_ = ${expr}\n`, modules, { set: true });
  const v = globals.get("_")!;
  return starlark.fromBytes(typeof v === "string" ? v : starlark.str(v));
}

function err(expr: string): string {
  try {
    ev(expr);
  } catch (e) {
    if (e instanceof starlark.StarlarkEvalError) return starlark.fromBytes(e.message);
    throw e;
  }
  throw new Error(`no error from ${expr}`);
}

describe("base64", () => {
  it("encodes and decodes with Go's four encodings", () => {
    expect(ev('base64.encode("hello?>")')).toBe("aGVsbG8/Pg==");
    expect(ev('base64.encode("hello?>", encoding="url")')).toBe("aGVsbG8_Pg==");
    expect(ev('base64.encode("hello?>", "standard_raw")')).toBe("aGVsbG8/Pg");
    expect(ev('base64.encode("hello?>", "url_raw")')).toBe("aGVsbG8_Pg");
    expect(ev('base64.decode("aGVsbG8/Pg==")')).toBe("hello?>");
    expect(ev('base64.decode("aGVs\\nbG8/Pg==")')).toBe("hello?>");
    expect(ev('base64.decode("aGVsbG8_Pg", "url_raw")')).toBe("hello?>");
    expect(ev('base64.decode(base64.encode("héllo wörld"))')).toBe("héllo wörld");
  });

  it("rejects bad input as Go does", () => {
    expect(err('base64.decode("aGVsbG8/Pg")')).toBe("illegal base64 data at input byte 8");
    expect(err('base64.decode("a*==")')).toBe("illegal base64 data at input byte 1");
    expect(err('base64.decode("aGVsbG8=x")')).toBe("illegal base64 data at input byte 8");
    expect(err('base64.encode("x", "hex")')).toBe("unsupported encoding format: hex");
  });
});

describe("csv", () => {
  it("reads records with Go's encoding/csv rules", () => {
    expect(ev('csv.read_all("a,b\\n\\"c,d\\",\\"say \\"\\"hi\\"\\"\\"\\n")')).toBe(
      '[["a", "b"], ["c,d", "say \\"hi\\""]]',
    );
    expect(ev('csv.read_all("a;b\\r\\n# note\\n\\nc;d", comma=";", comment="#")')).toBe(
      '[["a", "b"], ["c", "d"]]',
    );
    expect(ev('csv.read_all("x,y\\nh1,h2\\n1,2", skip=1)')).toBe('[["h1", "h2"], ["1", "2"]]');
    expect(ev('csv.read_all("a,\\"multi\\nline\\"\\n")')).toBe('[["a", "multi\\nline"]]');
    expect(ev('csv.read_all("a,  b", trim_leading_space=True)')).toBe('[["a", "b"]]');
  });

  it("reports Go's parse errors", () => {
    expect(err('csv.read_all("a,b\\nc\\n")')).toBe("record on line 2: wrong number of fields");
    expect(err('csv.read_all("a,b\\"c\\n")')).toBe(
      'parse error on line 1, column 4: bare " in non-quoted-field',
    );
    expect(err('csv.read_all("\\"a\\"b,c\\n")')).toBe(
      'parse error on line 1, column 3: extraneous or missing " in quoted-field',
    );
    expect(err('csv.read_all("a", comma="::")')).toBe("expected comma param to be a single-character string");
  });

  it("writes rows as Go's csv.Writer does", () => {
    expect(ev('csv.write_all([["a", "b c", "d,e"], [1, 2.5, True, None], ["say \\"hi\\"", " x", ""]])')).toBe(
      'a,b c,"d,e"\n1,2.5,true,<nil>\n"say ""hi"""," x",\n',
    );
    expect(ev('csv.write_all([["a", "b"]], comma="|")')).toBe("a|b\n");
    expect(err('csv.write_all(["a"])')).toBe("row 0 is not an array type");
  });
});

describe("yaml", () => {
  it("loads YAML 1.1 as Go's yaml.v2 does", () => {
    expect(ev('yaml.loads("a: yes\\nb: 0777\\nc: [1, 2.5, ~]\\nd: \\"on\\"\\n")')).toBe(
      '{"a": True, "b": 511, "c": [1, 2.5, None], "d": "on"}',
    );
    expect(ev('yaml.loads("")')).toBe("None");
  });

  it("dumps with sorted keys, compact sequences and Go's quoting", () => {
    expect(
      ev('yaml.dumps({"z": 1, "a": {"list": ["x", "true", 1.5e7], "empty": {}}, "s": "line1\\nline2"})'),
    ).toBe('a:\n  empty: {}\n  list:\n  - x\n  - "true"\n  - 1.5e+07\ns: |-\n  line1\n  line2\nz: 1\n');
    expect(ev('yaml.dumps([{"b": 1, "a": 2}, [3]])')).toBe("- a: 2\n  b: 1\n- - 3\n");
    expect(err('yaml.dumps({"s": set([1])})')).toBe("unmarshaling starlark value: sets aren't yet supported");
  });
});

describe("hash", () => {
  it("gives hex digests of the string's bytes", () => {
    expect(ev('hash.md5("")')).toBe("d41d8cd98f00b204e9800998ecf8427e");
    expect(ev('hash.sha1("abc")')).toBe("a9993e364706816aba3e25717850c26c9cd0d89d");
    expect(ev('hash.sha256("é")')).toBe("4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c");
    expect(err("hash.md5(1)")).toBe("hash.md5: for parameter 1: got int, want string");
  });
});

describe("re", () => {
  it("matches with RE2 semantics and starlib's result shapes", () => {
    expect(ev('re.search("b+", "aébbc")')).toBe("[3, 5]");
    expect(ev('re.search("z", "abc")')).toBe("None");
    expect(ev('re.match("(\\\\w)(\\\\d)?", "a1 b")')).toBe('[("a1", "a", "1"), ("b", "b", "")]');
    expect(ev('re.findall("[0-9]+", "a1b22c333")')).toBe('("1", "22", "333")');
    expect(ev('re.split(",\\\\s*", "a, b,c")')).toBe('("a", "b", "c")');
    expect(ev('re.split(",", "a,b,c", maxsplit=2)')).toBe('("a", "b,c")');
    expect(ev('re.sub("(?P<k>\\\\w+)=(\\\\w+)", "${2}:$k", "x=1 y=2")')).toBe("1:x 2:y");
    const compiled = 'p = re.compile("a(b*)")';
    expect(ev("p.findall('abbxab')", compiled)).toBe('("abb", "ab")');
    expect(ev("str(p)", compiled)).toBe("a(b*)");
    expect(ev("type(p)", compiled)).toBe("regexp");
  });

  it("runs in linear time where a backtracking engine would not", () => {
    expect(ev('re.search("(a+)+$", "a" * 5000 + "b")')).toBe("None");
  });

  it("reports Go's syntax errors; sub gives None for a bad pattern, as starlib does", () => {
    expect(err('re.compile("(a")')).toBe("error parsing regexp: missing closing ): `(a`");
    expect(err('re.search("a(?=b)", "ab")')).toContain(
      "error parsing regexp: invalid or unsupported Perl syntax",
    );
    expect(ev('re.sub("(a", "x", "a")')).toBe("None");
  });
});

describe("yaml.v3 key order of new mappings", () => {
  it("sorts keys naturally (digit runs as numbers, letters first), ASCII or not", async () => {
    const { sortGoKeys } = await import("../../src/starlark/lib/yaml-values.js");
    const keys = ["a10", "spec", "a01", "Z", "x00y", "a", "_x", "10", "a9z", "01", "kind", "a.b", "a0", "2"];
    keys.push("b", "a-b", "apiVersion", "x0y", "a001", "0", "metadata", "a2", "aB", "001", "-", "a09");
    const sorted = sortGoKeys(keys.slice(), (k) => k);
    expect(sorted.join(" ")).toBe(
      "- _x 0 01 001 2 10 Z a a-b a.b a0 a01 a001 a2 a9z a09 a10 aB apiVersion b kind metadata spec x00y x0y",
    );
    // Non-ASCII keys take the decoding path: other characters before letters (of any script).
    const utf8 = (s: string) => Buffer.from(s, "utf8").toString("latin1");
    const mixed = sortGoKeys([utf8("é1"), "e2", utf8("€"), "a"], (k) => k).map((k) =>
      Buffer.from(k, "latin1").toString("utf8"),
    );
    expect(mixed).toEqual(["€", "a", "e2", "é1"]);
  });
});
