import { describe, expect, it } from "vitest";
import { createSetters } from "../../../src/runtimes/builtin/create-setters.js";
import { enableGcpServices } from "../../../src/runtimes/builtin/enable-gcp-services.js";
import { generateFolders, normalizeFolderName } from "../../../src/runtimes/builtin/generate-folders.js";
import { removeLocalConfigResources } from "../../../src/runtimes/builtin/remove-local-config-resources.js";
import { setEnforcementAction } from "../../../src/runtimes/builtin/set-enforcement-action.js";
import { configMap, dump, runBuiltin } from "../helpers.js";

const at = (path: string) => `  annotations:\n    internal.config.kubernetes.io/path: ${path}\n`;

describe("set-enforcement-action", () => {
  const constraints = `apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sRequiredLabels
metadata:
  name: need-owner
${at("policy.yaml")}spec:
  enforcementAction: deny # keep me
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sOther
metadata:
  name: other
${at("policy.yaml")}---
apiVersion: v1
kind: ConfigMap
metadata:
  name: untouched
`;

  it("sets spec.enforcementAction of every constraint and counts them", async () => {
    const out = await runBuiltin(setEnforcementAction, constraints, configMap({ enforcementAction: "warn" }));
    expect(out.yaml).toContain("enforcementAction: warn # keep me");
    expect(out.yaml).toContain(
      "name: other\n  annotations:\n    internal.config.kubernetes.io/path: policy.yaml\nspec:\n  enforcementAction: warn\n",
    );
    expect(out.results.map((r) => r.message)).toEqual([
      "Number of policies set to [warn]: 2",
      "Policy name: [need-owner]",
      "Policy name: [other]",
    ]);
  });

  it("rejects a value that is not deny, warn or dryrun", async () => {
    const out = await runBuiltin(
      setEnforcementAction,
      constraints,
      configMap({ enforcementAction: "block" }),
    );
    expect(out.results).toEqual([
      {
        message:
          "failed to process policies: expected values for enforcementAction are [deny] or [warn] or [dryrun]",
        severity: "error",
      },
    ]);
  });
});

describe("remove-local-config-resources", () => {
  it("drops local-config resources and reports them", async () => {
    const out = await runBuiltin(
      removeLocalConfigResources,
      `apiVersion: v1
kind: ConfigMap
metadata:
  name: setters
  annotations:
    config.kubernetes.io/local-config: "True"
    internal.config.kubernetes.io/path: setters.yaml
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: kept
`,
    );
    expect(out.items).toHaveLength(1);
    expect(out.results.map((r) => r.message)).toEqual([
      "Number of resources pruned: 1",
      "Resource name: [setters]",
    ]);
    expect(out.results[1].file).toEqual({ path: "setters.yaml" });
  });
});

describe("create-setters", () => {
  it("adds kpt-set comments for scalar and array setter values", async () => {
    const out = await runBuiltin(
      createSetters,
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 4
  image: nginx:1.16.1
  envs: [dev, stage]
  other: [a, b]
`,
      configMap({ replicas: "4", tag: "1.16.1", image: "nginx", env: "- stage\n- dev" }),
    );
    expect(out.yaml).toContain("replicas: 4 # kpt-set: ${replicas}");
    expect(out.yaml).toContain("image: nginx:1.16.1 # kpt-set: ${image}:${tag}");
    expect(out.yaml).toContain("envs: # kpt-set: ${env}\n    - dev\n    - stage");
    expect(out.yaml).toContain("other: [ a, b ]");
    expect(out.results.map((r) => r.message)).toContain(
      'Added line comment "kpt-set: ${env}" for field with value "[dev stage]"',
    );
  });

  it("fails when nothing matches", async () => {
    const out = await runBuiltin(
      createSetters,
      "apiVersion: v1\nkind: A\nmetadata:\n  name: a\n",
      configMap({ x: "zzz" }),
    );
    expect(out.results[0]).toEqual({
      message: "failed to create setters: no matches for the input list of setters",
      severity: "error",
    });
  });
});

describe("enable-gcp-services", () => {
  it("generates one Service per service, prunes stale ones and reports recreated ones", async () => {
    const out = await runBuiltin(
      enableGcpServices,
      `apiVersion: blueprints.cloud.google.com/v1alpha1
kind: ProjectServiceSet
metadata:
  name: proj
  namespace: projects
  annotations:
    team: infra
    internal.config.kubernetes.io/path: sub/services.yaml
spec:
  services: [compute.googleapis.com, redis.googleapis.com]
  projectID: p1
---
apiVersion: serviceusage.cnrm.cloud.google.com/v1beta1
kind: Service
metadata:
  name: proj-bigquery
  namespace: projects
  annotations:
    blueprints.cloud.google.com/ownerReference: blueprints.cloud.google.com/ProjectServiceSet/proj
    internal.config.kubernetes.io/path: sub/projects/service_proj-bigquery.yaml
spec:
  resourceID: bigquery.googleapis.com
---
apiVersion: serviceusage.cnrm.cloud.google.com/v1beta1
kind: Service
metadata:
  name: proj-compute
  namespace: projects
  annotations:
    blueprints.cloud.google.com/ownerReference: blueprints.cloud.google.com/ProjectServiceSet/proj
    internal.config.kubernetes.io/path: old.yaml
spec:
  resourceID: compute.googleapis.com
`,
    );
    const names = out.items.map((d) => d.getIn(["metadata", "name"]));
    expect(names).toEqual(["proj", "proj-compute", "proj-redis"]);
    expect(out.items[0].getIn(["metadata", "annotations", "config.kubernetes.io/local-config"])).toBe("true");
    expect(dump([out.items[2]])).toBe(`apiVersion: serviceusage.cnrm.cloud.google.com/v1beta1
kind: Service
metadata:
  name: proj-redis
  annotations:
    team: 'infra'
    blueprints.cloud.google.com/ownerReference: 'blueprints.cloud.google.com/ProjectServiceSet/proj'
    internal.config.kubernetes.io/path: 'sub/projects/service_proj-redis.yaml'
  namespace: projects
spec:
  resourceID: redis.googleapis.com
  projectRef:
    external: p1
`);
    expect(out.results.map((r) => [r.message, r.file?.path])).toEqual([
      ["pruned service", "sub/projects/service_proj-bigquery.yaml"],
      ["recreated service", "sub/projects/service_proj-compute.yaml"],
      ["generated service", "sub/projects/service_proj-redis.yaml"],
    ]);
  });

  it("requires at least one service", async () => {
    const out = await runBuiltin(
      enableGcpServices,
      "apiVersion: blueprints.cloud.google.com/v1alpha1\nkind: ProjectServiceSet\nmetadata:\n  name: p\nspec:\n  services: []\n",
    );
    expect(out.results[0].message).toBe(
      "failed to add services: at least one service must be specified under `spec.services[]`",
    );
  });
});

describe("generate-folders", () => {
  it("normalises folder names", () => {
    expect(normalizeFolderName('Team "One"')).toBe("team-one");
    expect(normalizeFolderName("Dev.Team_2")).toBe("dev.team-2");
  });

  it("generates v1alpha3 folders with native refs, depends-on and inherited annotations", async () => {
    const out = await runBuiltin(
      generateFolders,
      `apiVersion: blueprints.cloud.google.com/v1alpha3
kind: ResourceHierarchy
metadata:
  name: h
  namespace: hierarchy
  annotations:
    owner: platform
    config.kubernetes.io/local-config: "true"
spec:
  parentRef:
    external: "123"
  config:
    - Dev:
        $subtree: teams
    - Prod
  subtrees:
    teams:
      - Team A
`,
    );
    expect(out.results).toEqual([]);
    const folders = out.items.slice(1);
    expect(folders.map((d) => d.getIn(["metadata", "name"]))).toEqual(["dev", "dev.team-a", "prod"]);
    expect(folders[1].toJSON()).toEqual({
      apiVersion: "resourcemanager.cnrm.cloud.google.com/v1beta1",
      kind: "Folder",
      metadata: {
        name: "dev.team-a",
        annotations: {
          owner: "platform",
          "config.kubernetes.io/depends-on":
            "resourcemanager.cnrm.cloud.google.com/namespaces/hierarchy/Folder/dev",
        },
        namespace: "hierarchy",
      },
      spec: { displayName: "Team A", folderRef: { name: "dev" } },
    });
    expect(folders[0].getIn(["spec", "organizationRef", "external"])).toBe("123");
    // Running again on its own output regenerates the folders in place instead of adding copies.
    const again = await runBuiltin(generateFolders, out.yaml);
    expect(again.items.map((d) => d.getIn(["metadata", "name"]))).toEqual(["h", "dev", "dev.team-a", "prod"]);
  });

  it("warns about older hierarchies and reports a missing subtree", async () => {
    const out = await runBuiltin(
      generateFolders,
      `apiVersion: cft.dev/v1alpha2
kind: ResourceHierarchy
metadata:
  name: old
spec:
  parentRef:
    external: org
  config:
    - Dev:
        $subtree: nope
`,
    );
    expect(out.results.map((r) => [r.severity, r.message])).toEqual([
      [
        "warn",
        "ResourceHierarchy old references an older Resource Hierarchy GroupVersion. Latest GroupVersion is blueprints.cloud.google.com/v1alpha3.",
      ],
      ["error", 'ResourceHierarchy old references non-existent subtree "nope"'],
    ]);
  });
});
