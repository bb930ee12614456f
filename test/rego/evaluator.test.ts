import { describe, expect, it } from "vitest";
import { compileModules, RegoBudgetError, RegoCompileError, RegoEvalError } from "../../src/rego/index.js";

const REQUIRED_LABELS = `package k8srequiredlabels

violation[{"msg": msg, "details": {"missing_labels": missing}}] {
  provided := {label | input.review.object.metadata.labels[label]}
  required := {label | label := input.parameters.labels[_]}
  missing := required - provided
  count(missing) > 0
  msg := sprintf("you must provide labels: %v", [missing])
}
`;

describe("Rego evaluator", () => {
  it("evaluates a Gatekeeper template (v0 partial set with an object key)", () => {
    const policy = compileModules([{ path: "template.rego", source: REQUIRED_LABELS }]);
    const r = policy.evaluate({
      query: "data.k8srequiredlabels.violation",
      input: {
        review: { object: { metadata: { labels: { app: "x" } } } },
        parameters: { labels: ["app", "owner", "team"] },
      },
    });
    expect(r.defined).toBe(true);
    expect(r.value).toEqual([
      { details: { missing_labels: ["owner", "team"] }, msg: 'you must provide labels: {"owner", "team"}' },
    ]);
    const ok = policy.evaluate({
      query: "data.k8srequiredlabels.violation",
      input: { review: { object: { metadata: { labels: { app: "x" } } } }, parameters: { labels: ["app"] } },
    });
    expect(ok.value).toEqual([]);
  });

  it("imports libs as data.lib.*, with functions, default, else and every (v1)", () => {
    const policy = compileModules(
      [
        {
          path: "lib.rego",
          source: `package lib.helpers
import rego.v1
default tier(_) := "unknown"
tier(n) := "small" if { is_number(n); n < 10 }
else := "large" if { is_number(n); n >= 10 }
all_even(xs) if every x in xs { x % 2 == 0 }
`,
        },
        {
          path: "main.rego",
          source: `package main
import data.lib.helpers
import rego.v1
tiers contains helpers.tier(n) if some n in input.ns
even if helpers.all_even(input.ns)
odd if not helpers.all_even(input.ns)
unknown := helpers.tier("x")
`,
        },
      ],
      { regoVersion: "v0" },
    );
    expect(policy.evaluate({ query: "data.main.tiers", input: { ns: [1, 20] } }).value).toEqual([
      "large",
      "small",
    ]);
    expect(policy.evaluate({ query: "data.main.even", input: { ns: [2, 4] } }).value).toBe(true);
    expect(policy.evaluate({ query: "data.main.even", input: { ns: [1] } }).defined).toBe(false);
    expect(policy.evaluate({ query: "data.main.odd", input: { ns: [1] } }).value).toBe(true);
    expect(policy.evaluate({ query: "data.main.unknown", input: {} }).value).toBe("unknown");
    expect(policy.packages).toEqual(["lib.helpers", "main"]);
  });

  it("backtracks through unification, negation and with", () => {
    const policy = compileModules([
      {
        path: "p.rego",
        source: `package p
pairs[[a, b]] { some a, b; [a, b] = [input.xs[_], input.xs[_]]; a < b }
missing[x] { x := input.want[_]; not has(x) }
has(x) { input.xs[_] == x }
mocked { missing["z"] with input.want as ["z"] }
`,
      },
    ]);
    const input = { xs: [1, 2, 3], want: [2, 7] };
    expect(policy.evaluate({ query: "data.p.pairs", input }).value).toEqual([
      [1, 2],
      [1, 3],
      [2, 3],
    ]);
    expect(policy.evaluate({ query: "data.p.missing", input }).value).toEqual([7]);
    expect(policy.evaluate({ query: "data.p.mocked", input }).value).toBe(true);
    const rs = policy.query({ query: "x := data.p.pairs[_]; x[0] == 2", input });
    expect(rs.map((r) => r.bindings.x)).toEqual([[2, 3]]);
  });

  it("reports parse errors with file, line and column", () => {
    let err: unknown;
    try {
      compileModules([{ path: "bad.rego", source: "package p\n\nq { x := }\n" }]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RegoCompileError);
    const e = err as RegoCompileError;
    expect([e.file, e.line]).toEqual(["bad.rego", 3]);
    expect(e.message).toMatch(/^bad\.rego:3:\d+: rego_parse_error: unexpected } token/);
    expect(() =>
      compileModules([{ path: "v1.rego", source: "package p\nimport rego.v1\nq { true }\n" }]),
    ).toThrow("`if` keyword is required before rule body");
  });

  it("makes a failing builtin undefined unless strict, and reports conflicts", () => {
    const policy = compileModules([
      { path: "p.rego", source: 'package p\nn := to_number("x")\nc := 1\nc := 2\n' },
    ]);
    expect(policy.evaluate({ query: "data.p.n" }).defined).toBe(false);
    expect(() => policy.evaluate({ query: "data.p.n", strictBuiltinErrors: true })).toThrow(RegoEvalError);
    expect(() => policy.evaluate({ query: "data.p.c" })).toThrow(
      "complete rules must not produce multiple outputs",
    );
  });

  it("stops a hostile policy with its budget", () => {
    const policy = compileModules([
      {
        path: "loop.rego",
        source:
          "package p\nbig := count([x | some i, j, k; x := numbers.range(1, 300)[i] + numbers.range(1, 300)[j] + numbers.range(1, 300)[k]])\n",
      },
    ]);
    expect(() => policy.evaluate({ query: "data.p.big", budget: { maxSteps: 100_000 } })).toThrow(
      RegoBudgetError,
    );
    const deep = compileModules([{ path: "deep.rego", source: "package p\nf(n) := f(n + 1)\nx := f(0)\n" }]);
    expect(() => deep.evaluate({ query: "data.p.x" })).toThrow(RegoBudgetError);
  });

  it("formats with Go's verbs and matches RE2 and globs", () => {
    const policy = compileModules([
      {
        path: "f.rego",
        source: `package f
s := sprintf("%v %s %d %q %.2f %v", ["a", 1, 3, "q", 1.5, {"k": [1, "x"]}])
r := regex.match("^(a+)+$", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!")
g := glob.match("*.example.com", ["."], "api.example.com")
b := units.parse_bytes("2Ki")
`,
      },
    ]);
    expect(policy.evaluate({ query: "data.f" }).value).toEqual({
      b: 2048,
      g: true,
      r: false,
      s: '%v 1 3 "q" 1.50 {"k": [1, "x"]}'.replace("%v", "a"),
    });
  });
});
