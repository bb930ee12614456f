import { describe, expect, it } from "vitest";
import { compileRe2, quoteMeta, Re2SyntaxError } from "../../src/krm/re2.js";

describe("compileRe2 (Go regexp semantics)", () => {
  it("matches a catastrophic-backtracking pattern in linear time", () => {
    // A backtracking engine (JavaScript's RegExp) needs 2^n steps here; RE2 answers at once.
    const text = `${"a".repeat(200_000)}!`;
    expect(compileRe2("(a+)+$").test(text)).toBe(false);
    expect(compileRe2("^(a|a?)+$").test(text)).toBe(false);
    expect(compileRe2("(x+x+)+y").findSubmatch("x".repeat(100_000))).toBeUndefined();
  });

  it("accepts RE2 syntax: (?P<name>), (?<name>), (?i), \\pL, POSIX classes, \\Q..\\E", () => {
    const re = compileRe2("(?P<repo>[a-z]+)/(?<name>[a-z]+):(?i)(V\\d+)");
    expect(re.findSubmatch("ghcr.io/kpt/setter:v1")).toEqual(["kpt/setter:v1", "kpt", "setter", "v1"]);
    expect(re.subexpNames).toEqual(["", "repo", "name", ""]);
    expect(re.numSubexp).toBe(3);
    expect(compileRe2("^\\pL+$").test("héllo")).toBe(true);
    expect(compileRe2("^[[:alpha:]]+$").test("abc")).toBe(true);
    expect(compileRe2("\\Qa.b\\E").test("axb")).toBe(false);
  });

  it("refuses what RE2 refuses, with Go's message", () => {
    expect(() => compileRe2("(a")).toThrow(
      new Re2SyntaxError("error parsing regexp: missing closing ): `(a`"),
    );
    expect(() => compileRe2("(a)\\1")).toThrow(Re2SyntaxError);
    expect(() => compileRe2("(?=a)")).toThrow(Re2SyntaxError);
    expect(() => compileRe2("(?<=a)b")).toThrow(Re2SyntaxError);
    expect(() => compileRe2("a{1001}")).toThrow("invalid repeat count");
  });

  it("reports groups that did not take part as undefined and offsets as -1", () => {
    const re = compileRe2("(a)|(b)");
    expect(re.findSubmatch("b")).toEqual(["b", undefined, "b"]);
    expect(re.findSubmatchIndex("xb")).toEqual([1, 2, -1, -1, 1, 2]);
    expect(re.findSubmatch("c")).toBeUndefined();
  });

  it("searches from an offset with the text before it as context", () => {
    expect(compileRe2("^a").findSubmatchIndex("aa", 1)).toBeUndefined();
    expect(compileRe2("\\ba").findSubmatchIndex("aa a", 1)).toEqual([3, 4]);
  });

  it("finds all matches, skipping an empty match right after a match (FindAllString)", () => {
    expect(compileRe2("a*").findAll("baaab")).toEqual(["", "aaa", ""]);
    expect(compileRe2("a").findAll("banana", 2)).toEqual(["a", "a"]);
    expect(compileRe2("x*").findAll("😀")).toEqual(["", ""]);
  });

  // Go's own ReplaceAllString cases (templates with `${` are written as template literals with `\${`).
  it.each([
    ["", "x", "abc", "xaxbxcx"],
    ["b", "", "abc", "ac"],
    ["[a-c]*", "x", "\u65e5", "x\u65e5x"],
    ["^[a-c]*", "x", "abcdabc", "xdabc"],
    ["[a-c]*$", "x", "abcdabc", "abcdx"],
    ["^[a-c]*$", "x", "", "x"],
    ["^[a-c]+", "x", "", ""],
    ["x", "xXx", "xxxXxxx", "xXxxXxxXxXxXxxXxxXx"],
    ["[a-c]*", "x", "def", "xdxexfx"],
    ["[a-c]*", "x", "abcbcdcdedef", "xdxdxexdxexfx"],
    ["a+", "($0)", "banana", "b(a)n(a)n(a)"],
    ["a+", `(\${0})$0`, "banana", "b(a)an(a)an(a)a"],
    ["hello, (.+)", `goodbye, \${1}`, "hello, world", "goodbye, world"],
    ["hello, (.+)", "goodbye, $1x", "hello, world", "goodbye, "],
    ["hello, (.+)", `goodbye, \${1}x`, "hello, world", "goodbye, worldx"],
    ["hello, (.+)", "<$0><$1><$2><$3>", "hello, world", "<hello, world><world><><>"],
    ["hello, (?P<noun>.+)", "goodbye, $noun!", "hello, world", "goodbye, world!"],
    ["hello, (?P<noun>.+)", `goodbye, \${noun}`, "hello, world", "goodbye, world"],
    ["(?P<x>hi)|(?P<y>bye)", "$x", "bye", ""],
    ["(?P<x>hi)|(?P<y>bye)", "$y", "bye", "bye"],
    ["a", "$$", "aa", "$$"],
    ["a", "$", "ba", "b$"],
    ["a", `\${1`, "ba", `b\${1`],
    ["(a)", "$01", "ba", "b"],
    ["nginx-(.*)", `ubuntu-\${1}`, "nginx-1.7.1", "ubuntu-1.7.1"],
  ])("ReplaceAllString(%j, %j) on %j", (pattern, template, input, want) => {
    expect(compileRe2(pattern).replaceAll(input, template)).toBe(want);
  });

  it("replaces literally and through a function", () => {
    expect(compileRe2("a(n)").replaceAllLiteral("banana", "$1")).toBe("b$1$1a");
    expect(compileRe2("a(n)?").replaceAllFunc("banana", (m, g) => `[${m}|${g[1] ?? "-"}]`)).toBe(
      "b[an|n][an|n][a|-]",
    );
  });

  it.each([
    ["a*", "abaabaccadaaae", 5, ["", "b", "b", "c", "cadaaae"]],
    ["a", "banana", -1, ["b", "n", "n", ""]],
    ["a", "apple", 0, []],
    ["a", "grape", 1, ["grape"]],
    ["z+", "pizza", 2, ["pi", "a"]],
    [",", "", -1, [""]],
  ])("Split(%j) of %j, n=%d", (pattern, input, n, want) => {
    expect(compileRe2(pattern).split(input, n)).toEqual(want);
  });

  it("quotes metacharacters (QuoteMeta)", () => {
    const text = "1.5-2.0?[a](b){c}|^$\\*+";
    expect(compileRe2(`^${quoteMeta(text)}$`).test(text)).toBe(true);
    expect(quoteMeta("a.b")).toBe("a\\.b");
  });
});
