import { describe, expect, it } from "vitest";
import { renderPackage } from "../../../src/engine/render.js";
import {
  createStarlarkFunction,
  readStarlarkSettings,
  starlark,
} from "../../../src/runtimes/builtin/starlark/index.js";
import { createDefaultRuntime } from "../../../src/runtimes/default.js";
import { fileText, loadFixture, withFile } from "../../engine/helpers.js";
import { configMap, runBuiltin } from "../helpers.js";

const RESOURCES = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  annotations:
    config.k8s.io/id: '1'
data:
  a: b
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    config.k8s.io/id: '2'
spec:
  replicas: 1
`;

/** A StarlarkRun functionConfig with `source` (indented into a literal block). */
function run(source: string, name = "test-script"): string {
  const body = source
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
  return `apiVersion: fn.kpt.dev/v1alpha1\nkind: StarlarkRun\nmetadata:\n  name: ${name}\nsource: |\n${body}\n`;
}

describe("starlark: functionConfig", () => {
  it("reports a missing, foreign or empty functionConfig as the catalog does", async () => {
    const missing = await runBuiltin(starlark, RESOURCES);
    expect(missing.results).toEqual([
      { message: "FunctionConfig is missing. Expect `ConfigMap` or `StarlarkRun`", severity: "error" },
    ]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toBe("failed to evaluate function: error: function failure");

    const foreign = await runBuiltin(
      starlark,
      RESOURCES,
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n",
    );
    expect(foreign.results[0]?.message).toBe(
      "`functionConfig` must be either /v1, Kind=ConfigMap or fn.kpt.dev/v1alpha1, Kind=StarlarkRun, but we got: apps/v1, Kind=Deployment",
    );

    const empty = await runBuiltin(starlark, RESOURCES, run("").replace("source: |\n  \n", 'source: ""\n'));
    expect(empty.results[0]?.message).toBe("`source` must not be empty");
  });

  it("takes the script and its parameters from a ConfigMap", async () => {
    const out = await runBuiltin(
      starlark,
      RESOURCES,
      configMap({
        replicas: "5",
        source:
          'for r in ctx.resource_list["items"]:\n  if r["kind"] == "Deployment":\n    r["spec"]["replicas"] = int(ctx.resource_list["functionConfig"]["data"]["replicas"])\n',
      }),
    );
    expect(out.results).toEqual([]);
    expect(out.yaml).toContain("spec:\n  replicas: 5\n");
  });

  it("names the script after metadata.name, or starlark-function-run", async () => {
    const named = await runBuiltin(starlark, RESOURCES, run("x = (1,\n", "my-gen"));
    expect(named.results[0]?.message).toMatch(/^my-gen:2:1: got end of file, want '\)'/);
    const unnamed = await runBuiltin(
      starlark,
      RESOURCES,
      configMap({ source: "x = (1,\n" }).toString().replace("name: function-input", "name: ''"),
    );
    expect(unnamed.results[0]?.message).toMatch(/^starlark-function-run:2:1: /);
  });
});

describe("starlark: running scripts", () => {
  it("fails the step with fail()'s message, and keeps print output in stderr", async () => {
    const out = await runBuiltin(starlark, RESOURCES, run('print("checking")\nfail("no httpbin")'));
    expect(out.exitCode).toBe(1);
    expect(out.results).toEqual([{ message: "fail: no httpbin", severity: "error" }]);
    expect(out.stderr).toBe("checking\nfailed to evaluate function: error: function failure");
  });

  it("reports a runtime error with go.starlark.net's message", async () => {
    const out = await runBuiltin(starlark, RESOURCES, run('ctx.resource_list["items"][0]["nope"]'));
    expect(out.results[0]?.message).toBe('key "nope" not in dict');
  });

  it("runs the catalog's dialect: top-level for/if, while, recursion, sets, global reassignment", async () => {
    const script = [
      "n = 0",
      "while n < 3:",
      "  n += 1",
      "def fact(k):",
      "  return 1 if k <= 1 else k * fact(k - 1)",
      "s = set([1, 2, 2])",
      "n = n + fact(4) + len(s)",
      'for r in ctx.resource_list["items"]:',
      '  if r["kind"] == "Deployment":',
      '    r["spec"]["replicas"] = n',
    ].join("\n");
    const out = await runBuiltin(starlark, RESOURCES, run(script));
    expect(out.results).toEqual([]);
    expect(out.yaml).toContain("replicas: 29\n");
  });

  it("prints to stderr on success", async () => {
    const out = await runBuiltin(starlark, RESOURCES, run('print("a")\nprint("b")'));
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toBe("a\nb");
  });

  it("exposes the ResourceList and ignores results a script writes (as the catalog does)", async () => {
    const script = [
      "rl = ctx.resource_list",
      'if rl["apiVersion"] != "config.kubernetes.io/v1" or rl["kind"] != "ResourceList":',
      '  fail("bad list")',
      'rl["results"] = [{"message": "ignored", "severity": "error"}]',
      'rl["items"][0]["data"]["fc"] = rl["functionConfig"]["metadata"]["name"]',
    ].join("\n");
    const out = await runBuiltin(starlark, RESOURCES, run(script));
    expect(out.results).toEqual([]);
    expect(out.exitCode).toBe(0);
    expect(out.yaml).toContain("fc: test-script");
  });

  it("reads ctx.open_api from the Kubernetes schemas", async () => {
    const script =
      'd = ctx.open_api["definitions"]["io.k8s.api.apps.v1.Deployment"]\nctx.resource_list["items"][0]["data"]["kinds"] = ",".join([g["kind"] for g in d["x-kubernetes-group-version-kind"]])';
    const out = await runBuiltin(starlark, RESOURCES, run(script));
    expect(out.results).toEqual([]);
    expect(out.yaml).toContain("kinds: Deployment");
  });

  it("stops a script that loops for ever at the step budget, naming the script and the limit", async () => {
    const bounded = createStarlarkFunction({ maxSteps: 20_000 });
    const out = await runBuiltin(
      bounded,
      RESOURCES,
      run("def spin():\n  while True:\n    pass\nspin()", "spinner"),
    );
    expect(out.exitCode).toBe(1);
    const message = out.results[0]?.message ?? "";
    expect(message).toContain("too many steps: spinner exceeded the step budget of 20000 steps");
    expect(message).toMatch(
      /Traceback \(most recent call last\):\n {2}spinner:4:5: in <toplevel>\n {2}spinner:\d+:\d+: in spin\n/,
    );
    expect(message).toContain("PORCHLIGHT_STARLARK_MAX_STEPS");
  });

  it("stops a script that keeps what it allocates at the memory budget, saying what bounds it", async () => {
    const bounded = createStarlarkFunction({ maxMemoryBytes: 16 << 20 });
    const out = await runBuiltin(bounded, RESOURCES, run("x = []\nwhile True:\n  x = [x, x]", "hog"));
    expect(out.exitCode).toBe(1);
    const message = out.results[0]?.message ?? "";
    expect(message).toContain("out of memory: hog exceeded the memory budget of 16777216 bytes");
    expect(message).toMatch(/\n {2}hog:3:7: in <toplevel>\n/);
    expect(message).toContain("the memory budget of a starlark run is 512 MiB, or half the heap");
    expect(message).not.toContain("PORCHLIGHT_STARLARK_MAX_STEPS");
  });

  it("does nothing but fail when the operator turned it off", async () => {
    const off = createStarlarkFunction({ enabled: false });
    const out = await runBuiltin(off, RESOURCES, run('fail("never runs")'));
    expect(out.results[0]?.message).toContain("starlark functions are turned off on this server");
    expect(out.results[0]?.message).toContain("PORCHLIGHT_ALLOW_STARLARK=false");
  });
});

describe("starlark: ctx.environment", () => {
  const script = 'ctx.resource_list["items"][0]["data"]["env"] = ",".join(sorted(ctx.environment.keys()))';

  it("is empty unless the operator lists variables", async () => {
    const out = await runBuiltin(starlark, RESOURCES, run(script));
    expect(out.yaml).toContain('env: ""');
  });

  it("holds only the listed variables, never secret-looking ones", async () => {
    const settings = readStarlarkSettings({
      PORCHLIGHT_STARLARK_ENV: "REGION, PRIVATE_KEY,GITHUB_TOKEN,ABSENT",
      REGION: "eu",
      PRIVATE_KEY: "-----BEGIN",
      GITHUB_TOKEN: "ghs_x",
    });
    expect(settings.environment).toEqual({ REGION: "eu" });
    const out = await runBuiltin(createStarlarkFunction(settings), RESOURCES, run(script));
    expect(out.yaml).toContain("env: REGION");
  });

  it("validates the operator's settings", () => {
    expect(readStarlarkSettings({})).toEqual({ enabled: true, environment: {}, maxSteps: 100_000_000 });
    expect(
      readStarlarkSettings({ PORCHLIGHT_ALLOW_STARLARK: "false", PORCHLIGHT_STARLARK_MAX_STEPS: "5" }),
    ).toEqual({
      enabled: false,
      environment: {},
      maxSteps: 5,
    });
    expect(() => readStarlarkSettings({ PORCHLIGHT_ALLOW_STARLARK: "maybe" })).toThrow(
      /PORCHLIGHT_ALLOW_STARLARK/,
    );
    expect(() => readStarlarkSettings({ PORCHLIGHT_STARLARK_MAX_STEPS: "lots" })).toThrow(
      /PORCHLIGHT_STARLARK_MAX_STEPS/,
    );
  });
});

describe("starlark: library modules", () => {
  it("loads the catalog's modules and krmfn", async () => {
    const script = [
      'load("encoding/json.star", "json")',
      'load("encoding/yaml.star", "yaml")',
      'load("encoding/base64.star", "base64")',
      'load("hash.star", "hash")',
      'load("re.star", "re")',
      'load("math.star", "math")',
      'load("krmfn.star", "krmfn")',
      'd = ctx.resource_list["items"][0]["data"]',
      'd["json"] = json.encode({"b": 1, "a": [True, None]})',
      'd["yaml"] = yaml.dumps({"k": ["x", "on"]})',
      'd["b64"] = base64.encode("héllo")',
      'd["sha"] = hash.sha256("abc")[:12]',
      'd["re"] = re.sub(r"(\\w+)@(\\w+)", "${2}-$1", "me@host")',
      'd["floor"] = str(math.floor(2.7))',
      'd["match"] = str([krmfn.match_gvk(r, "apps/v1", "Deployment") and krmfn.match_name(r, "web") for r in ctx.resource_list["items"]])',
    ].join("\n");
    const out = await runBuiltin(starlark, RESOURCES, run(script));
    expect(out.results).toEqual([]);
    expect(out.yaml).toContain(`json: '{"a":[true,null],"b":1}'`);
    expect(out.yaml).toContain('yaml: |\n    k:\n    - x\n    - "on"\n');
    expect(out.yaml).toContain("b64: aMOpbGxv");
    expect(out.yaml).toContain("sha: ba7816bf8f01");
    expect(out.yaml).toContain("re: host-me");
    expect(out.yaml).toContain('floor: "2"');
    expect(out.yaml).toContain('match: "[False, True]"');
  });

  it("refuses network modules' calls and names modules it does not provide", async () => {
    const http = await runBuiltin(
      starlark,
      RESOURCES,
      run('load("http.star", "http")\nhttp.get("https://example.com")'),
    );
    expect(http.results[0]?.message).toBe(
      "http.get: starlark functions have no network access in porchlight",
    );
    const bsoup = await runBuiltin(
      starlark,
      RESOURCES,
      run('load("bsoup.star", "bsoup")\nbsoup.parseHtml("<p>")'),
    );
    expect(bsoup.results[0]?.message).toContain("the bsoup module is not provided");
    const unknown = await runBuiltin(starlark, RESOURCES, run('load("os.star", "os")'));
    expect(unknown.results[0]?.message).toMatch(
      /^cannot load os\.star: module not provided by porchlight's starlark function \(it provides .*encoding\/json\.star/,
    );
  });
});

describe("starlark: resources written back", () => {
  it("changes only what the script changed: comments, quoting and number forms of the rest survive", async () => {
    const files = await loadFixture("starlark-app");
    const result = await renderPackage({
      files,
      runtime: createDefaultRuntime({ allowExec: false, useContainers: false }),
      packageName: "starlark-app",
    });
    expect(result.error).toBeUndefined();
    expect(fileText(result.files, "app.yaml")).toBe(`# The web tier.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the name stays
  annotations:
    note: 'kept in single quotes'
  labels:
    team: lanterns
spec:
  replicas: 3 # replaced by the script
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        # the main container
        - name: web
          image: "nginx:1.25" # pinned
          ports:
            - containerPort: 0x50
        - args:
            - sleep
            - "3600"
          image: busybox:1.36
          name: sidecar
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: "on"
  limit: "010"
  ratio: 0.25
  summary: '{"team":"lanterns"}'
`);
    // A generated resource: kyaml's default file name, every mapping's keys sorted as Go writes them.
    expect(fileText(result.files, "service_web.yaml")).toBe(`apiVersion: v1
kind: Service
metadata:
  labels:
    team: lanterns
  name: web
spec:
  ports:
  - port: 80
    targetPort: 8080
  selector:
    app: web
`);
    expect(result.status.renderStatus?.mutationSteps?.[0]?.stderr).toBe("shaped 5 resources");

    // Rendering the result again changes nothing.
    const again = await renderPackage({
      files: result.files!,
      runtime: createDefaultRuntime({ allowExec: false, useContainers: false }),
      packageName: "starlark-app",
    });
    for (const [path, bytes] of again.files!) {
      expect(Buffer.from(bytes).toString(), path).toBe(Buffer.from(result.files!.get(path)!).toString());
    }
    expect([...again.files!.keys()].sort()).toEqual([...result.files!.keys()].sort());
  });

  it("names a generated resource's file when it is generated, not after later steps", async () => {
    const base = await loadFixture("starlark-app");
    const files = withFile(
      base,
      "Kptfile",
      `${fileText(base, "Kptfile")}    - image: set-namespace:latest\n      configMap:\n        namespace: prod\n`,
    );
    const result = await renderPackage({
      files,
      runtime: createDefaultRuntime({ allowExec: false, useContainers: false }),
      packageName: "starlark-app",
    });
    expect(result.error).toBeUndefined();
    expect(fileText(result.files, "service_web.yaml")).toContain("namespace: prod");
    expect(result.files!.has("prod/service_web.yaml")).toBe(false);
  });

  it("fails the step when the script puts two resources at one path and index", async () => {
    const base = await loadFixture("starlark-app");
    const files = withFile(
      base,
      "fn-config.yaml",
      run(
        'ctx.resource_list["items"].append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "dup", "annotations": {"internal.config.kubernetes.io/path": "./app.yaml", "internal.config.kubernetes.io/index": 0}}})',
        "dup",
      ).replace(
        "metadata:\n  name: dup\n",
        "metadata:\n  name: dup\n  annotations:\n    config.kubernetes.io/local-config: 'true'\n",
      ),
    );
    const result = await renderPackage({
      files,
      runtime: createDefaultRuntime({ allowExec: false, useContainers: false }),
      packageName: "starlark-app",
    });
    expect(result.ok).toBe(false);
    expect(result.cliError).toBe('resource at path "app.yaml" and index "0" already exists');
  });

  it("reports a value that is not data as the catalog's encoder does", async () => {
    const out = await runBuiltin(
      starlark,
      RESOURCES,
      run(
        'ctx.resource_list["items"][0]["data"]["s"] = set([1])\nctx.resource_list["items"][1]["spec"]["f"] = len',
      ),
    );
    expect(out.results[0]?.message).toBe(
      "unmarshaling starlark value: unmarshaling starlark value: unmarshaling starlark value: sets aren't yet supported",
    );
  });
});
