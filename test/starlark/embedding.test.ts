import { describe, expect, it } from "vitest";
import * as starlark from "../../src/starlark/index.js";

const { Thread, StarlarkEvalError, execFile, toStarlark, fromStarlark } = starlark;

function exec(src: string, predeclared: starlark.Predeclared = {}, options: starlark.FileOptions = {}) {
  const out: string[] = [];
  const thread = new Thread({ name: "test.star" });
  thread.print = (_t, msg) => out.push(msg);
  const globals = execFile(thread, "test.star", src, predeclared, options);
  return { globals, out, thread };
}

function evalError(fn: () => unknown): starlark.StarlarkEvalError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StarlarkEvalError) return e;
    throw e;
  }
  throw new Error("no error");
}

describe("Starlark embedding API", () => {
  it("executes a file with predeclared host values and returns frozen globals", () => {
    const double = starlark.builtin("double", (args) => toStarlark(2 * Number(args[0])));
    const { globals, out } = exec(
      'x = double(21)\nitems = [n * 2 for n in data["ns"]]\nprint("x =", x, "é")\n',
      { double, data: toStarlark({ ns: [1, 2, 3] }) },
    );
    expect(globals.get("x")).toBe(42);
    expect(fromStarlark(globals.get("items")!)).toEqual([2, 4, 6]);
    expect(starlark.isFrozen(globals.get("items")!)).toBe(true);
    expect(out).toEqual(["x = 42 é"]);
  });

  it("converts host data to Starlark and back (dict order, big ints, floats, bytes, UTF-8 strings)", () => {
    const data = { b: 1, a: [true, null, 1.5, "héllo", 2n ** 70n], nested: { k: new Uint8Array([0, 255]) } };
    const v = toStarlark(data);
    expect(starlark.typeName(v)).toBe("dict");
    expect(starlark.fromBytes(starlark.repr(v))).toBe(
      '{"b": 1, "a": [True, None, 1.5, "héllo", 1180591620717411303424], "nested": {"k": b"\\x00\\xff"}}',
    );
    expect(fromStarlark(v)).toEqual(data);
    expect(() => toStarlark({ f: () => 1 })).toThrow(/cannot convert function/);
  });

  it("reports runtime errors with the call stack and a go.starlark.net backtrace", () => {
    const src = "def f(x):\n    return g(x)\ndef g(x):\n    return 1 // x\nf(0)\n";
    const err = evalError(() => exec(src));
    expect(err.message).toBe("floored division by zero");
    expect(err.callStack.map((f) => [f.name, f.line])).toEqual([
      ["<toplevel>", 5],
      ["f", 2],
      ["g", 4],
    ]);
    expect(err.backtrace()).toBe(
      [
        "Traceback (most recent call last):",
        "  test.star:5:2: in <toplevel>",
        "  test.star:2:13: in f",
        "  test.star:4:14: in g",
        "Error: floored division by zero",
      ].join("\n"),
    );
    // An argument error is reported in the callee's frame at its first instruction, as go.starlark.net does.
    const argErr = evalError(() => exec("def f(x):\n    y = 1 + x\n    return y\nf(1, 2)\n"));
    expect(argErr.message).toBe("function f accepts 1 positional argument (2 given)");
    expect(argErr.callStack.map((f) => `${f.name}@${f.line}:${f.col}`)).toEqual(["<toplevel>@4:2", "f@1:1"]);
    const argErr2 = evalError(() => exec("def g(x):\n    y = x + 1\n    return y\ng()\n"));
    expect(argErr2.callStack.map((f) => `${f.name}@${f.line}:${f.col}`)).toEqual(["<toplevel>@4:2", "g@2:9"]);
    // So is a recursive call without the recursion option: the backtrace ends in the callee's frame.
    const recErr = evalError(() =>
      exec("def f(n):\n    if n == 0:\n        return 1\n    return f(n - 1)\nf(3)\n"),
    );
    expect(recErr.backtrace()).toBe(
      [
        "Traceback (most recent call last):",
        "  test.star:5:2: in <toplevel>",
        "  test.star:4:13: in f",
        "  test.star:2:8: in f",
        "Error: function f called recursively",
      ].join("\n"),
    );
    // A function's name is text of the script (UTF-8), printed as such.
    const named = evalError(() => exec("def é():\n    return 1 // 0\né()\n"));
    expect(named.backtrace()).toContain("  test.star:2:14: in é\n");
    // A failing slice reports the last call, operator or name laid out before it, as go.starlark.net's
    // compiler records positions (a conditional's true branch is laid out after; `and`'s right operand too).
    const sliceCol = (src: string) => evalError(() => exec(src)).callStack.at(-1)?.col;
    expect(sliceCol('print(repr("a,b,,c"[100:-100:0]))\n')).toBe(25);
    expect(sliceCol('y = 1\nz = [1, 2, 3]["a":(1) if (y) else (y)]\n')).toBe(36);
    expect(sliceCol('y = 1\nz = [1, 2, 3]["a":y if 1 else 1]\n')).toBe(14);
    expect(sliceCol('y = 1\nz = [1, 2, 3]["a":(1) if not (y) else (2)]\n')).toBe(31);
    expect(sliceCol('y = 1\nz = [1, 2, 3]["a":1 and y]\n')).toBe(14);
    expect(sliceCol('y = 1\nz = [1, 2, 3]["a":1 or y]\n')).toBe(24);
    const builtinErr = evalError(() => exec("len(1)\n"));
    expect(builtinErr.backtrace()).toBe(
      "Traceback (most recent call last):\n  test.star:1:4: in <toplevel>\nError in len: len: value of type int has no len",
    );
  });

  it("reports syntax and resolve errors with positions", () => {
    expect(() => exec("x = (1,\n")).toThrow(starlark.StarlarkSyntaxError);
    try {
      exec("y = undefined_a\nz = undefined_b\n");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(starlark.StarlarkResolveError);
      const errs = (e as starlark.StarlarkResolveError).errors;
      expect(errs.map((x) => [x.line, x.col, x.msg])).toEqual([
        [1, 5, "undefined: undefined_a"],
        [2, 5, "undefined: undefined_b"],
      ]);
    }
  });

  it("loads host modules through thread.load and freezes loaded values", () => {
    const thread = new Thread();
    const lib = new Map<string, starlark.Value>([
      ["helpers", starlark.makeModule("helpers", { greeting: "hi" })],
      ["items", new starlark.List([1])],
    ]);
    thread.load = (_t, module) => {
      if (module !== "lib.star") throw new Error(`no module ${module}`);
      return lib;
    };
    starlark.freeze(lib.get("items")!);
    const globals = execFile(
      thread,
      "m.star",
      'load("lib.star", "helpers", n = "items")\ng = helpers.greeting\nc = len(n)\n',
    );
    expect(globals.get("g")).toBe("hi");
    expect(globals.get("c")).toBe(1);
    const err = evalError(() => execFile(thread, "m.star", 'load("other.star", "x")\n'));
    expect(err.message).toBe("cannot load other.star: no module other.star");
    const mut = evalError(() => execFile(thread, "m.star", 'load("lib.star", "items")\nitems.append(2)\n'));
    expect(mut.message).toBe("append: cannot append to frozen list");
  });

  it("reports a host built-in's thrown Error as a Starlark error of that message", () => {
    const check = starlark.builtin("check", (args) => {
      if (args[0] !== "ok") throw new Error(`bad value ${starlark.fromBytes(starlark.repr(args[0]!))}`);
      return starlark.None;
    });
    const err = evalError(() => exec('check("ok")\ncheck("no")\n', { check }));
    expect(err.message).toBe('bad value "no"');
    expect(err.backtrace()).toContain("Error in check: bad value");
  });

  it("calls Starlark functions from the host", () => {
    const { globals, thread } = exec("def add(a, b = 10):\n    return a + b\n");
    expect(starlark.call(thread, globals.get("add")!, [1])).toBe(11);
    expect(starlark.call(thread, globals.get("add")!, [1], [["b", 2]])).toBe(3);
    expect(() => starlark.call(thread, globals.get("add")!, [])).toThrow(
      "function add missing 1 argument (a)",
    );
  });

  it("compiles once and runs a program many times with different predeclared values", () => {
    const prog = starlark.compile("p.star", "out = [x * 2 for x in xs]\n", { predeclared: ["xs"] });
    for (const xs of [[1], [2, 3]]) {
      const g = starlark.runProgram(new Thread(), prog, { xs: toStarlark(xs) });
      expect(fromStarlark(g.get("out")!)).toEqual(xs.map((x) => 2 * x));
    }
  });

  it("memoizes compiled programs by source and options", () => {
    const a = starlark.compileCached("c.star", "x = 1\n", { predeclared: ["p"] });
    expect(starlark.compileCached("c.star", "x = 1\n", { predeclared: ["p"] })).toBe(a);
    expect(starlark.compileCached("c.star", "x = 2\n", { predeclared: ["p"] })).not.toBe(a);
    expect(
      starlark.compileCached("c.star", "x = 1\n", { predeclared: ["p"], options: { set: true } }),
    ).not.toBe(a);
    expect(starlark.runProgram(new Thread(), a, { p: 1 }).get("x")).toBe(1);
  });

  it("evaluates expressions", () => {
    expect(starlark.evalExpr(new Thread(), "e", "1 + x * 2", { x: 20 })).toBe(41);
    expect(starlark.repr(starlark.evalExpr(new Thread(), "e", '[y for y in "ab".elems()]'))).toBe(
      '["a", "b"]',
    );
  });

  it("keeps dialect options off by default", () => {
    expect(() => exec("s = set([1])\n")).toThrow(/dialect does not support sets/);
    expect(() => exec("def f():\n    while True:\n        pass\n")).toThrow(
      /dialect does not support while loops/,
    );
    expect(() => exec("x = 1\nx = 2\n")).toThrow(/cannot reassign global x/);
    const { globals } = exec("s = set([1])\nx = 1\nx = 2\n", {}, { set: true, globalReassign: true });
    expect(globals.get("x")).toBe(2);
  });
});

describe("Starlark budgets and sandbox", () => {
  it("stops a huge loop at the step budget with an error naming the script and the limit", () => {
    const thread = new Thread({ name: "loop.star", budget: { maxSteps: 100_000 } });
    const src = "def f():\n    n = 0\n    for i in range(1000000000):\n        n += i\n    return n\nf()\n";
    const err = evalError(() => execFile(thread, "loop.star", src));
    expect(err.message).toBe(
      "Starlark computation cancelled: too many steps: loop.star exceeded the step budget of 100000 steps",
    );
    expect(thread.steps).toBeLessThan(100_100);
  });

  it("stops unbounded recursion (with the recursion option) at the call depth budget", () => {
    const thread = new Thread({ name: "rec.star" });
    const err = evalError(() =>
      execFile(thread, "rec.star", "def r(n):\n    return r(n + 1)\nr(0)\n", {}, { recursion: true }),
    );
    expect(err.message).toBe(
      "Starlark stack overflow (rec.star exceeded the call depth budget of 1000 calls)",
    );
  });

  it("stops a while True loop at the step budget", () => {
    const thread = new Thread({ name: "w.star", budget: { maxSteps: 10_000 } });
    const src = "def f():\n    while True:\n        pass\nf()\n";
    expect(() => execFile(thread, "w.star", src, {}, { while: true })).toThrow(
      /exceeded the step budget of 10000 steps/,
    );
  });

  it("stops big allocations at the memory budget", () => {
    const thread = new Thread({ name: "mem.star", budget: { maxMemoryBytes: 1_000_000 } });
    expect(() => execFile(thread, "mem.star", 'x = "ab" * 10000000\n')).toThrow(
      "Starlark computation cancelled: out of memory: mem.star exceeded the memory budget of 1000000 bytes",
    );
    const t2 = new Thread({ name: "grow.star", budget: { maxMemoryBytes: 1_000_000 } });
    const grow =
      'def f():\n    s = []\n    for i in range(100000):\n        s.append("0123456789" * 10)\nf()\n';
    expect(() => execFile(t2, "grow.star", grow)).toThrow(/exceeded the memory budget/);
    // Building a string piecewise is linear (JS ropes): 10k lines of 50 bytes fit a 2 MB budget.
    const t3 = new Thread({ name: "lines.star", budget: { maxMemoryBytes: 2_000_000 } });
    const lines =
      'def f():\n    s = ""\n    for i in range(10000):\n        s += "0123456789012345678901234567890123456789abcd" + str(10000 + i) + "\\n"\n    return len(s)\nn = f()\n';
    expect(execFile(t3, "lines.star", lines).get("n")).toBe(500_000);
  });

  it("budget errors cannot be caught and ignored by the script's own helpers", () => {
    const thread = new Thread({ name: "c.star", budget: { maxSteps: 1000 } });
    const probe = starlark.builtin("probe", (args, _kw, th) => {
      try {
        starlark.callFromBuiltin(th, args[0]!, []);
      } catch {
        // swallow
      }
      return starlark.None;
    });
    const src =
      "def spin():\n    for i in range(100000):\n        pass\nprobe(spin)\nfor_ever = [i for i in range(100000)]\n";
    expect(() => execFile(thread, "c.star", src, { probe }, { topLevelControl: true })).toThrow(
      /step budget/,
    );
  });

  it("stops a script at its time budget", () => {
    const thread = new Thread({ name: "slow.star", budget: { timeoutMs: 50 } });
    const src = "def f():\n    for i in range(100000000):\n        pass\nf()\n";
    const t0 = Date.now();
    expect(() => execFile(thread, "slow.star", src)).toThrow(
      "Starlark computation cancelled: timeout: slow.star exceeded the time budget of 50 ms",
    );
    expect(Date.now() - t0).toBeLessThan(30_000);
  });

  it("cancels a running script", () => {
    const thread = new Thread({ name: "x.star" });
    const stop = starlark.builtin("stop", (_a, _k, th) => {
      th.cancel("render deadline exceeded");
      return starlark.None;
    });
    const err = evalError(() =>
      execFile(thread, "x.star", "def f():\n    stop()\n    for i in range(10):\n        pass\nf()\n", {
        stop,
      }),
    );
    expect(err.message).toBe("Starlark computation cancelled: render deadline exceeded");
  });

  it("refuses a pathologically nested program with a syntax error", () => {
    const deep = `x = ${"[".repeat(50000)}${"]".repeat(50000)}\n`;
    expect(() => exec(deep)).toThrow(starlark.StarlarkSyntaxError);
  });

  it("offers scripts only the universe of go.starlark.net plus what the host predeclares", () => {
    expect([...starlark.UNIVERSE.keys()].sort()).toEqual(
      [
        "None",
        "True",
        "False",
        "abs",
        "any",
        "all",
        "bool",
        "bytes",
        "chr",
        "dict",
        "dir",
        "enumerate",
        "fail",
        "float",
        "getattr",
        "hasattr",
        "hash",
        "int",
        "len",
        "list",
        "max",
        "min",
        "ord",
        "print",
        "range",
        "repr",
        "reversed",
        "set",
        "sorted",
        "str",
        "tuple",
        "type",
        "zip",
      ].sort(),
    );
    expect(() => exec('open("/etc/passwd")\n')).toThrow(/undefined: open/);
    expect(() => exec('load("os", "environ")\n')).toThrow(/load not implemented by this application/);
  });
});

describe("Starlark work accounting", () => {
  it("charges steps for work proportional to the data an operation walks (bounded work per step)", () => {
    const src =
      'def f():\n    s = "ab" * 100000\n    n = 0\n    for i in range(1000):\n        n += s.count("b")\n    return n\nf()\n';
    const thread = new Thread({ name: "work.star", budget: { maxSteps: 200_000 } });
    expect(() => execFile(thread, "work.star", src)).toThrow(/exceeded the step budget of 200000 steps/);
    const list =
      "def g():\n    xs = list(range(100000))\n    for i in range(1000):\n        if -1 in xs:\n            pass\ng()\n";
    const t2 = new Thread({ name: "in.star", budget: { maxSteps: 1_000_000 } });
    expect(() => execFile(t2, "in.star", list)).toThrow(/exceeded the step budget/);
  });
});

describe("Starlark budgets against hostile scripts", () => {
  const dialect = { while: true, globalReassign: true, topLevelControl: true, recursion: true };
  const run = (src: string, budget: starlark.Budget = {}) =>
    execFile(new Thread({ name: "hostile.star", budget }), "hostile.star", src, {}, dialect);

  it("charges big-int multiplication and decimal conversion before doing it", () => {
    // Squaring 40 times would compute for minutes (and exceed V8's BigInt size): the step budget stops it.
    const t0 = Date.now();
    expect(() => run("x = 3\nfor i in range(40):\n    x = x * x\n")).toThrow(
      /hostile.star exceeded the step budget of 100000000 steps/,
    );
    expect(() => run("x = 7\nfor i in range(18):\n    x = x * x\ny = str(x)\n", { maxSteps: 1e6 })).toThrow(
      /exceeded the step budget of 1000000 steps/,
    );
    expect(() => run('x = int("9" * 200000)\n', { maxSteps: 1e6 })).toThrow(/step budget/);
    // Ordinary big ints cost nothing extra; other bases parse in n log n.
    expect(run('x = (1 << 500) * (1 << 500) // 3\ny = int("z" * 100000, 36) % 1000\n').get("y")).toBe(375);
    expect(Date.now() - t0).toBeLessThan(60_000);
  });

  it("stops nested list growth and over-long strings at the memory budget, never with an internal error", () => {
    expect(() => run("x = []\nwhile True:\n    x = [x, x]\n", { maxMemoryBytes: 32 << 20 })).toThrow(
      "Starlark computation cancelled: out of memory: hostile.star exceeded the memory budget of 33554432 bytes",
    );
    expect(() => run('s = "a" * 1000000\nt = s.replace("a", "b" * 1000)\n')).toThrow(
      /^Starlark computation cancelled: out of memory: hostile.star exceeded the memory budget/,
    );
    // A value the host cannot build at all is reported as out of memory too.
    const e = evalError(() =>
      run('s = "a" * 400000000\nt = s + s\nu = t + t\nv = u + u\nw = v + v\n', { maxMemoryBytes: 1e12 }),
    );
    expect(e.message).toMatch(/out of memory: hostile.star built a value larger than the host allows/);
  });

  it("measures the heap's real growth, which the allocation estimate undercounts", () => {
    // Functions and short strings cost the host far more than they are charged: without measuring,
    // this script would reach its step budget having kept hundreds of megabytes.
    const thread = new Thread({
      name: "kept.star",
      budget: { maxSteps: 5_000_000, maxMemoryBytes: 32 << 20 },
    });
    const src = "x = []\nfor i in range(1 << 40):\n    x.append(lambda: i)\n    x.append(str(i))\n";
    const err = evalError(() => execFile(thread, "kept.star", src, {}, { topLevelControl: true }));
    expect(err.message).toContain("out of memory: kept.star exceeded the memory budget of 33554432 bytes");
  });

  it("a loop making short-lived values is not taken for one that keeps them", () => {
    // 3 million tuples and lists are charged (about 300 MB) but few are alive at once.
    const g = run("n = 0\nfor i in range(1000000):\n    t = (i, i)\n    l = [i]\n    n += len(l)\n", {
      maxMemoryBytes: 64 << 20,
    });
    expect(g.get("n")).toBe(1000000);
  });

  it("freezes deeply nested and exponentially shared values without exhausting the host", () => {
    const g = run(
      "x = ()\nfor i in range(200):\n    x = (x, x)\ny = []\nfor i in range(100000):\n    y = [y]\n",
    );
    expect(starlark.isFrozen(g.get("y")!)).toBe(true);
  });

  it("reports a value nested too deeply to print with its position", () => {
    const e = evalError(() => run("x = []\nfor i in range(100000):\n    x = [x]\ns = str(x)\n"));
    expect(e.message).toBe("Starlark stack overflow");
    expect(e.callStack.at(-1)).toMatchObject({ name: "str" });
    expect(e.callStack[0]).toMatchObject({ file: "hostile.star", line: 4 });
  });
});
