import { describe, expect, it } from "vitest";
import { applyVariant, MutationError } from "../../../src/lifecycle/variants/mutations.js";
import {
  type PackageVariant,
  toValidVariant,
  validateVariant,
} from "../../../src/lifecycle/variants/package-variant.js";
import { texts, tree } from "../../pkg/helpers.js";

const kptfile = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: app
pipeline:
  mutators:
    - image: set-namespace:v0.4
      configMap:
        namespace: app
`;

const variant = (spec: PackageVariant["spec"]): PackageVariant => ({
  name: "app-east",
  file: "package-variants/app-east.yaml",
  spec: {
    upstream: { repo: "blueprints", package: "base", revision: 2 },
    downstream: { repo: "org/deployments", package: "east/app" },
    ...spec,
  },
});

describe("applyVariant (Porch's PackageVariant mutations)", () => {
  it("sets the package context, prepends the variant's functions named as Porch names them, records the owner", () => {
    const pv = toValidVariant(
      variant({
        packageContext: { data: { region: "east", zone: "a" } },
        pipeline: { mutators: [{ image: "set-labels:v0.2", name: "labels", configMap: { tier: "web" } }] },
        labels: { team: "payments" },
      }),
      "org/deployments",
    );
    const result = applyVariant({ files: tree({ Kptfile: kptfile }), variant: pv });
    const out = texts(result.files);
    expect(out["package-context.yaml"]).toBe(`apiVersion: v1
kind: ConfigMap
metadata:
  name: kptfile.kpt.dev
  annotations:
    config.kubernetes.io/local-config: "true"
data:
  name: app
  region: east
  zone: a
`);
    expect(out.Kptfile).toBe(`apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: app
  labels:
    team: payments
  annotations:
    porchlight.dev/package-variant: app-east
pipeline:
  mutators:
    - image: set-labels:v0.2
      configMap:
        tier: web
      name: PackageVariant.app-east.labels.0
    - image: set-namespace:v0.4
      configMap:
        namespace: app
`);
    expect(result.changed).toBe(true);
    const again = applyVariant({ files: result.files, variant: pv });
    expect(again.changed).toBe(false);
  });

  it("replaces the variant's earlier functions and drops an emptied pipeline", () => {
    const before = toValidVariant(
      variant({ pipeline: { validators: [{ image: "kubeval:v0.3" }] } }),
      "org/deployments",
    );
    const first = applyVariant({
      files: tree({ Kptfile: "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\n" }),
      variant: before,
    });
    expect(texts(first.files).Kptfile).toContain(
      "validators:\n    - image: kubeval:v0.3\n      name: PackageVariant.app-east..0\n",
    );
    const after = toValidVariant(variant({}), "org/deployments");
    expect(texts(applyVariant({ files: first.files, variant: after }).files).Kptfile).not.toContain(
      "pipeline",
    );
  });

  it("injects the selected resource's data and records the injection as a condition and a readiness gate", () => {
    const files = tree({
      Kptfile: "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\n",
      "settings.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  annotations:
    kpt.dev/config-injection: required
data:
  level: default
`,
    });
    const pv = toValidVariant(
      variant({ injectors: [{ kind: "ConfigMap", name: "east-settings" }] }),
      "org/deployments",
    );
    const result = applyVariant({
      files,
      variant: pv,
      injectables: [
        { apiVersion: "v1", kind: "ConfigMap", name: "east-settings", data: { data: { level: "debug" } } },
      ],
    });
    const out = texts(result.files);
    expect(out["settings.yaml"]).toContain(
      "    kpt.dev/injected-resource: east-settings\ndata:\n  level: debug\n",
    );
    expect(out.Kptfile).toContain(`info:
  readinessGates:
    - conditionType: config.injection.ConfigMap.settings
status:
  conditions:
    - type: config.injection.ConfigMap.settings
      status: "True"
      reason: ConfigInjected
      message: injected resource "east-settings" from cluster
`);
    const none = applyVariant({ files, variant: toValidVariant(variant({}), "org/deployments") });
    expect(none.injections).toEqual([
      expect.objectContaining({
        status: "False",
        reason: "NoResourceSelected",
        message: "no injectors defined",
      }),
    ]);
  });

  it("refuses an invalid injection annotation", () => {
    const files = tree({
      Kptfile: "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\n",
      "x.yaml":
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    kpt.dev/config-injection: maybe\n",
    });
    expect(() => applyVariant({ files, variant: toValidVariant(variant({}), "org/deployments") })).toThrow(
      MutationError,
    );
  });
});

describe("validateVariant", () => {
  it("gives Porch's messages and porchlight's own-repository rule", () => {
    const pv: PackageVariant = {
      name: "x",
      file: "package-variants/x.yaml",
      spec: {
        upstream: { repo: "blueprints", revision: "latest" },
        downstream: { repo: "other-org/other", package: "p" },
        packageContext: { data: { name: "n" } },
        deletionPolicy: "keep",
      },
    };
    expect(validateVariant(pv, "org/deployments")).toEqual([
      "missing required field spec.upstream.package",
      "spec.upstream.revision must name a published revision (2 or v2)",
      "spec.downstream.repo must be this repository (org/deployments): a variant only writes to its own repository",
      'spec.deletionPolicy can only be "orphan" or "delete"',
      'spec.packageContext.data: must not contain the key "name"',
    ]);
  });
});
