/**
 * deploy/porchlight, the deployment as a kpt package, through the built CLI as README runs it: the
 * committed package is rendered already (rendering it again changes no byte) and its kubeconform
 * validator passes; the setters reach every field they name; a broken field fails validation; the
 * manifests meet the operator's rules (numeric non-root user, read-only root filesystem, no privilege
 * escalation, probes on /healthz, resources, a grace period above the app's shutdown); and
 * deploy/porchlight.yaml is the plain-manifest output of the package as committed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { DEFAULT_SHUTDOWN_ABORT_MS, DEFAULT_SHUTDOWN_GRACE_MS } from "../../src/server/shutdown.js";
import { ensureBuiltCli, repoRoot } from "../helpers/built-cli.js";

const pkg = path.join(repoRoot, "deploy/porchlight");
const cli = path.join(repoRoot, "bin/porchlight.js");
const work = mkdtempSync(path.join(tmpdir(), "porchlight-deploy-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function copy(name: string): string {
  const dir = path.join(work, name);
  cpSync(pkg, dir, { recursive: true });
  return dir;
}

function files(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (f.isFile()) {
      const full = path.join(f.parentPath, f.name);
      out.set(path.relative(dir, full), readFileSync(full, "utf8"));
    }
  }
  return out;
}

function render(dir: string, ...flags: string[]) {
  ensureBuiltCli();
  return spawnSync(process.execPath, [cli, "render", dir, ...flags], { encoding: "utf8" });
}

/** The README's plain-manifest command: render to stdout, drop the local-config resources, unwrap. */
function plainManifests(dir: string): string {
  const list = execFileSync(process.execPath, [cli, "render", dir, "-o", "stdout"], { encoding: "utf8" });
  return execFileSync(
    process.execPath,
    [
      cli,
      "fn",
      "eval",
      "-",
      "-i",
      "ghcr.io/kptdev/krm-functions-catalog/remove-local-config-resources:v0.1.0",
      "-o",
      "unwrap",
    ],
    { input: list, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] },
  );
}

// biome-ignore lint/suspicious/noExplicitAny: parsed manifests are walked by the paths Kubernetes defines
type Obj = Record<string, any>;
const docs = (text: string): Obj[] => parseAllDocuments(text).map((d) => d.toJS() as Obj);

describe("deploy/porchlight", () => {
  it("renders and validates, and the committed package is already rendered (idempotent)", {
    timeout: 120_000,
  }, () => {
    const dir = copy("again");
    const r = render(dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('[PASS] "ghcr.io/kptdev/krm-functions-catalog/kubeconform:latest"');
    expect(r.stderr).toContain("Successfully executed 3 function(s) in 3 package(s).");
    expect(files(dir)).toEqual(files(pkg));
  });

  it("applies every setter, and kubeconform refuses a broken field", { timeout: 120_000 }, () => {
    const dir = copy("set");
    const setters = path.join(dir, "setters.yaml");
    writeFileSync(
      setters,
      readFileSync(setters, "utf8")
        .replace("image: ghcr.io/porchlight/porchlight:0.1.0", "image: registry.example.com/porchlight:9.9.9")
        .replace('worker-replicas: "2"', 'worker-replicas: "5"')
        .replace("receiver-role: receiver", "receiver-role: all")
        .replace("app-secret: porchlight-app", "app-secret: my-app")
        .replace("redis-url-secret: porchlight-redis-url", "redis-url-secret: my-redis"),
    );
    expect(render(dir).status).toBe(0);
    const all = [...files(dir).entries()].filter(([f]) => f.endsWith(".yaml")).flatMap(([, t]) => docs(t));
    const deployment = (c: string) =>
      all.find((d) => d.kind === "Deployment" && d.metadata.name === `porchlight-${c}`);
    const container = (c: string) => deployment(c)?.spec.template.spec.containers[0];
    expect(container("receiver").image).toBe("registry.example.com/porchlight:9.9.9");
    expect(deployment("worker")?.spec.replicas).toBe(5);
    expect(container("receiver").env.find((e: Obj) => e.name === "PORCHLIGHT_ROLE").value).toBe("all");
    expect(container("worker").envFrom[0].secretRef.name).toBe("my-app");
    expect(container("worker").env.find((e: Obj) => e.name === "REDIS_URL").valueFrom.secretKeyRef.name).toBe(
      "my-redis",
    );
    expect(all.find((d) => d.kind === "Secret")?.metadata.name).toBe("my-redis");

    const broken = copy("broken");
    const worker = path.join(broken, "worker.yaml");
    writeFileSync(
      worker,
      readFileSync(worker, "utf8").replace(
        "terminationGracePeriodSeconds: 30",
        "terminationGracePeriodSeconds: soon",
      ),
    );
    const r = render(broken);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("terminationGracePeriodSeconds");
  });

  it("runs as the operator's rules require", () => {
    const all = [...files(pkg).entries()].filter(([f]) => f.endsWith(".yaml")).flatMap(([, t]) => docs(t));
    const kinds = all.map((d) => d.kind).sort();
    for (const k of ["Deployment", "PodDisruptionBudget", "Service", "StatefulSet", "ServiceMonitor"]) {
      expect(kinds).toContain(k);
    }
    const workloads = all.filter((d) => d.kind === "Deployment" || d.kind === "StatefulSet");
    expect(workloads.map((d) => d.metadata.name).sort()).toEqual([
      "porchlight-receiver",
      "porchlight-redis",
      "porchlight-worker",
    ]);
    for (const w of workloads) {
      const spec = w.spec.template.spec;
      expect(spec.securityContext.runAsNonRoot, w.metadata.name).toBe(true);
      expect(Number.isInteger(spec.securityContext.runAsUser) && spec.securityContext.runAsUser > 0).toBe(
        true,
      );
      for (const c of spec.containers) {
        expect(c.securityContext).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
        });
        expect(c.resources.requests.memory && c.resources.limits.memory, w.metadata.name).toBeTruthy();
        expect(c.readinessProbe && c.livenessProbe, w.metadata.name).toBeTruthy();
      }
      expect(w.metadata.namespace).toBe("porchlight");
    }
    for (const name of ["porchlight-receiver", "porchlight-worker"]) {
      const spec = workloads.find((w) => w.metadata.name === name)?.spec.template.spec;
      const c = spec.containers[0];
      expect(c.readinessProbe.httpGet.path).toBe("/healthz");
      expect(c.livenessProbe.httpGet.path).toBe("/healthz");
      const grace = Number(
        c.env.find((e: Obj) => e.name === "PORCHLIGHT_SHUTDOWN_GRACE_MS")?.value ?? DEFAULT_SHUTDOWN_GRACE_MS,
      );
      expect(spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(grace + DEFAULT_SHUTDOWN_ABORT_MS);
      expect(spec.volumes.map((v: Obj) => v.name)).toContain("tmp"); // writable /tmp beside a read-only root
    }
    expect(all.filter((d) => d.kind === "PodDisruptionBudget")).toHaveLength(2);
  });

  it("deploy/porchlight.yaml is the plain-manifest output of the committed package", {
    timeout: 120_000,
  }, () => {
    ensureBuiltCli();
    const committed = readFileSync(path.join(repoRoot, "deploy/porchlight.yaml"), "utf8");
    const lines = committed.split("\n");
    const body = lines.slice(lines.findIndex((l) => !l.startsWith("#"))).join("\n");
    expect(body).toBe(plainManifests(copy("plain")));
    const kinds = docs(body).map((d) => d.kind);
    expect(kinds).not.toContain("Kptfile");
    expect(
      docs(body).every((d) => d.metadata?.annotations?.["config.kubernetes.io/local-config"] === undefined),
    ).toBe(true);
    expect(kinds).toHaveLength(10);
  });
});
