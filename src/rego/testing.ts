/**
 * Runs Rego test-case files in the YAML format of OPA/regorus's interpreter cases (see
 * ../shared/rego/README.md): each case's modules are compiled and its query evaluated, and the results are
 * compared with `want_result`, an expected `error` substring, `no_result`, or `want_prints`.
 */
import { parse as parseYaml } from "yaml";
import { fromJS, toRegoString } from "./convert.js";
import { RegoCompileError, RegoEvalError } from "./errors.js";
import { compileModules } from "./index.js";
import type { QueryResult } from "./types.js";
import { equal, RObject, RSet, type Value } from "./values.js";

/** The outcome of one case. */
export interface CaseResult {
  note: string;
  status: "passed" | "failed" | "skipped";
  /** Why it failed. */
  problem?: string;
}

/** Decodes the case format's value encodings (`set!`, `object!`). */
export function decodeValue(x: unknown): Value {
  if (Array.isArray(x)) return Object.freeze(x.map(decodeValue));
  if (x !== null && typeof x === "object") {
    const o = x as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && keys[0] === "set!" && Array.isArray(o["set!"]))
      return new RSet((o["set!"] as unknown[]).map(decodeValue));
    if (keys.length === 1 && keys[0] === "object!" && Array.isArray(o["object!"])) {
      const out = new RObject();
      for (const e of o["object!"] as { key: unknown; value: unknown }[])
        out.set(decodeValue(e.key), decodeValue(e.value));
      return out;
    }
    const out = new RObject();
    for (const [k, v] of Object.entries(o)) out.set(k, decodeValue(v));
    return out;
  }
  return fromJS(x);
}

function isMany(x: unknown): x is { "many!": unknown[] } {
  return (
    x !== null &&
    typeof x === "object" &&
    !Array.isArray(x) &&
    Array.isArray((x as Record<string, unknown>)["many!"]) &&
    Object.keys(x).length === 1
  );
}

function shape(results: QueryResult[]): Value[] {
  const bindingsObj = (r: QueryResult): RObject | undefined => {
    const keys = Object.keys(r.bindings);
    if (keys.length === 0) return undefined;
    const o = new RObject();
    for (const k of keys) o.set(k, r.bindings[k] as Value);
    return o;
  };
  if (results.length === 1) {
    const r = results[0] as QueryResult;
    const b = bindingsObj(r);
    return b ? [b] : [...r.expressions];
  }
  return results.map((r) => bindingsObj(r) ?? Object.freeze([...r.expressions]));
}

interface Case {
  note?: string;
  data?: unknown;
  input?: unknown;
  modules?: string[];
  query?: string;
  want_result?: unknown;
  error?: string;
  no_result?: boolean;
  skip?: boolean;
  strict?: boolean;
  want_prints?: string[];
  execution_timer?: { limit_ms?: number; check_interval?: number; disable?: boolean };
  global_execution_timer?: { limit_ms?: number; check_interval?: number; disable?: boolean };
  time_source?: { default_increment_ms?: number };
}

type Clock = { now: () => number; checkEvery: number };

/** regorus's execution timer of a case: a fake clock advancing per reading, and the limit. */
function timerOf(c: Case): { clock?: Clock; timeoutMs?: number } {
  const timer = c.execution_timer ?? c.global_execution_timer;
  if (!timer || timer.disable || timer.limit_ms === undefined) return {};
  let t = 0;
  const inc = c.time_source?.default_increment_ms ?? 0;
  const now = () => {
    const r = t;
    t += inc;
    return r;
  };
  return { clock: { now, checkEvery: timer.check_interval ?? 1 }, timeoutMs: timer.limit_ms };
}

/** Compiles the case's modules and runs its query once per input; the results as the harness shapes them. */
function evaluateCase(c: Case, v1: boolean, prints: string[]): Value[] {
  const { clock, timeoutMs } = timerOf(c);
  const outcome: Value[] = [];
  const policy = compileModules(
    (c.modules ?? []).map((source, i) => ({ path: `rego_${i}`, source })),
    { regoVersion: v1 ? "v1" : "v0" },
  );
  const inputs = isMany(c.input) ? c.input["many!"] : [c.input];
  for (const input of inputs) {
    const rs = policy.query({
      query: String(c.query ?? ""),
      input: input === undefined ? undefined : decodeValue(input),
      data: decodeValue(c.data ?? {}),
      strictBuiltinErrors: c.strict !== false,
      print: (line) => prints.push(line),
      budget: timeoutMs !== undefined ? { timeoutMs } : undefined,
      clock,
    });
    outcome.push(...shape(rs));
  }
  return outcome;
}

/** The verdict on an evaluation that threw: passed when the case expects an error containing the message. */
function judgeError(c: Case, note: string, e: unknown): CaseResult {
  if (!(e instanceof RegoCompileError || e instanceof RegoEvalError)) {
    if (c.error !== undefined && e instanceof Error && e.message.includes(c.error))
      return { note, status: "passed" };
    return { note, status: "failed", problem: `internal error: ${(e as Error).stack ?? String(e)}` };
  }
  if (c.error === undefined) return { note, status: "failed", problem: `unexpected error: ${e.message}` };
  if (e.message.includes(c.error)) return { note, status: "passed" };
  return {
    note,
    status: "failed",
    problem: `error ${JSON.stringify(e.message)} does not contain ${JSON.stringify(c.error)}`,
  };
}

/** The verdict on an evaluation that succeeded: expected error, prints, no result, want_result. */
function judgeOutcome(c: Case, note: string, outcome: Value[], prints: string[]): CaseResult {
  const failed = (problem: string): CaseResult => ({ note, status: "failed", problem });
  if (c.error !== undefined)
    return failed(`expected an error containing ${JSON.stringify(c.error)}, got ${fmt(outcome)}`);
  if (c.want_prints !== undefined) {
    const want = c.want_prints.map(String);
    if (want.length !== prints.length || want.some((w, i) => w !== prints[i]))
      return failed(`prints ${JSON.stringify(prints)}, want ${JSON.stringify(want)}`);
  }
  if (c.no_result === true) {
    return outcome.length === 0
      ? { note, status: "passed" }
      : failed(`expected no result, got ${fmt(outcome)}`);
  }
  if (!("want_result" in c)) return { note, status: "passed" };
  const want = isMany(c.want_result) ? c.want_result["many!"].map(decodeValue) : [decodeValue(c.want_result)];
  if (want.length !== outcome.length || want.some((w, i) => !equal(w, outcome[i] as Value)))
    return failed(`got ${fmt(outcome.slice(0, 5))}, want ${fmt(want)}`);
  return { note, status: "passed" };
}

/** Runs one case; `v1` selects Rego v1 for its modules. */
export function runCase(c: Case, v1: boolean): CaseResult {
  const note = String(c.note ?? "(no note)");
  if (c.skip === true) return { note, status: "skipped" };
  const prints: string[] = [];
  let outcome: Value[];
  try {
    outcome = evaluateCase(c, v1, prints);
  } catch (e) {
    return judgeError(c, note, e);
  }
  return judgeOutcome(c, note, outcome, prints);
}

function fmt(vs: Value[]): string {
  const s = vs.length === 0 ? "(no result)" : vs.map((v) => toRegoString(v, false)).join(" | ");
  return s.length > 600 ? `${s.slice(0, 600)}...` : s;
}

/**
 * Joins a block-context flow sequence written over under-indented lines (`key: [` ... `]`) onto one line:
 * serde_yaml, which upstream reads the files with, accepts such sequences; the YAML 1.2 grammar does not.
 */
function joinFlowSequences(text: string): string {
  const out: string[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/:\s*\[\s*$/.test(line)) {
      let joined = line.trimEnd();
      let j = i + 1;
      while (j < lines.length && !/^\s*\]\s*$/.test(lines[j] as string)) {
        joined += ` ${(lines[j] as string).trim()}`;
        j++;
      }
      if (j < lines.length) {
        out.push(`${joined} ]`);
        i = j;
        continue;
      }
    }
    out.push(line);
  }
  return out.join("\n");
}

/** Runs every case of a file. `file` decides the Rego version as upstream does (binding/bindings.yaml: v1). */
export function runCaseFile(file: string, text: string): CaseResult[] {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    try {
      doc = parseYaml(joinFlowSequences(text));
    } catch {
      return [{ note: file, status: "failed", problem: `cannot parse ${file}: ${(e as Error).message}` }];
    }
  }
  const cases = (doc as { cases?: Case[] } | null)?.cases;
  if (!Array.isArray(cases)) return [{ note: file, status: "failed", problem: `${file}: no cases: list` }];
  const v1 = /(^|\/)binding\/bindings\.yaml$/.test(file.replace(/\\/g, "/"));
  return cases.map((c) => runCase(c, v1));
}
