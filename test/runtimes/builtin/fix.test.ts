import { describe, expect, it } from "vitest";
import { fix } from "../../../src/runtimes/builtin/fix.js";
import { runBuiltin } from "../helpers.js";

const KPTFILE = `apiVersion: kpt.dev/v1alpha1
kind: Kptfile
metadata:
  name: app
  annotations:
    internal.config.kubernetes.io/path: Kptfile
packageMetadata:
  shortDescription: an app
  tags: [web]
dependencies:
  - name: dep
openAPI:
  definitions:
    io.k8s.cli.setters.image:
      x-k8s-cli:
        setter:
          name: image
          value: nginx
    io.k8s.cli.setters.tag:
      x-k8s-cli:
        setter:
          name: tag
          value: "1.7"
    io.k8s.cli.setters.envs:
      x-k8s-cli:
        setter:
          name: envs
          listValues: [dev, prod]
    io.k8s.cli.substitutions.image-tag:
      x-k8s-cli:
        substitution:
          name: image-tag
          pattern: IMAGE:TAG
          values:
            - marker: IMAGE
              ref: '#/definitions/io.k8s.cli.setters.image'
            - marker: TAG
              ref: '#/definitions/io.k8s.cli.setters.tag'
`;

const RESOURCES = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    internal.config.kubernetes.io/path: deploy.yaml
spec:
  template:
    spec:
      containers:
        - name: web
          image: nginx:1.7 # {"$kpt-set":"image-tag"}
  envs: # {"$kpt-set":"envs"}
    - dev
    - prod
---
apiVersion: example.com/v1
kind: Validator
metadata:
  name: check
  annotations:
    internal.config.kubernetes.io/path: fn.yaml
    config.kubernetes.io/function: |
      container:
        image: gcr.io/example/check:v1
`;

describe("fix", () => {
  it("migrates a v1alpha1 package: Kptfile, setters, substitutions and function annotations", async () => {
    const out = await runBuiltin(fix, `${KPTFILE}---\n${RESOURCES}`);
    const [kptfile, deployment, fn, setters] = out.items;
    expect(kptfile.toJSON()).toMatchObject({
      apiVersion: "kpt.dev/v1",
      info: { description: "an app", keywords: ["web"] },
      pipeline: {
        mutators: [
          { image: "gcr.io/kpt-fn/apply-setters:v0.2", configPath: "setters.yaml" },
          { image: "gcr.io/example/check:v1", configPath: "check.yaml" },
        ],
      },
    });
    expect(kptfile.toJSON()).not.toHaveProperty("openAPI");
    expect(kptfile.toJSON()).not.toHaveProperty("dependencies");
    expect(out.yaml).toContain("image: nginx:1.7 # kpt-set: ${image}:${tag}");
    expect(out.yaml).toContain("envs: # kpt-set: ${envs}\n    - dev");
    expect(fn.getIn(["metadata", "annotations", "internal.config.kubernetes.io/path"])).toBe("check.yaml");
    expect(fn.getIn(["metadata", "annotations", "config.kubernetes.io/function"])).toBeUndefined();
    expect(deployment.getIn(["kind"])).toBe("Deployment");
    expect(setters.toJSON().data).toEqual({ envs: "- dev\n- prod\n", image: "nginx", tag: "1.7" });
    expect(out.results.map((r) => r.message)).toEqual([
      'Transformed "packageMetadata" to "info"',
      'Added "gcr.io/example/check:v1" to mutators list, please move it to validators section if it is a validator function',
      'Transformed "openAPI" definitions to "apply-setters" function',
    ]);
  });

  it("writes a v1alpha2 package's apply-setters configMap to setters.yaml in kyaml's field order", async () => {
    const out = await runBuiltin(
      fix,
      `apiVersion: kpt.dev/v1alpha2
kind: Kptfile
metadata:
  name: app
  annotations:
    internal.config.kubernetes.io/path: Kptfile
pipeline:
  mutators:
    - image: gcr.io/kpt-fn/apply-setters:v0.2
      configMap:
        image: nginx
        list: '[dev, stage]'
        namespace: some-space
        replicas: "5"
        tag: 1.14.1
`,
    );
    const setters = out.yaml.split("---\n").find((d) => d.includes("name: setters")) ?? "";
    // kyaml's FormatFilter ranks namespace, replicas and image before the fields it does not know.
    expect(setters.slice(setters.indexOf("\ndata:") + 1)).toBe(
      'data:\n  namespace: some-space\n  replicas: "5"\n  image: nginx\n  list: |\n    - dev\n    - stage\n  tag: 1.14.1\n',
    );
  });

  it("leaves a v1 package alone and fails without a Kptfile", async () => {
    const v1 = await runBuiltin(fix, "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: a\n");
    expect(v1.results[0].message).toBe(
      "This package is already fixed as it is on latest apiVersion kpt.dev/v1",
    );
    const none = await runBuiltin(fix, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n");
    expect(none.results[0]).toEqual({
      message:
        "failed to fix package: Kptfile not found in directory tree, make sure you specify '--include-meta-resources' flag",
      severity: "error",
    });
  });
});
