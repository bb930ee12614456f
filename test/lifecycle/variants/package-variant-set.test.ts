import { describe, expect, it } from "vitest";
import {
  expandVariantSet,
  parsePackageVariantSet,
} from "../../../src/lifecycle/variants/package-variant-set.js";

const set = (targets: unknown) => ({
  apiVersion: "config.porch.kpt.dev/v1alpha2",
  kind: "PackageVariantSet",
  metadata: { name: "edge" },
  spec: { upstream: { repo: "blueprints", package: "base", revision: 2 }, targets },
});

describe("PackageVariantSet (v1alpha2)", () => {
  it("fans the template out over the targets of this repository only", () => {
    const parsed = parsePackageVariantSet(
      "package-variants/edge.yaml",
      set([
        {
          repositories: [
            { name: "deploy", packageNames: ["east", "west"] },
            { name: "acme/other", packageNames: ["north"] },
          ],
          template: { packageContext: { data: { tier: "edge" } }, labels: { team: "net" } },
        },
      ]),
    )!;
    const { variants, errors, elsewhere } = expandVariantSet(parsed, "acme/deploy");
    expect(errors).toEqual([]);
    expect(elsewhere).toEqual(["acme/other"]);
    expect(variants.map((v) => [v.name, v.spec.downstream])).toEqual([
      ["edge-east", { repo: "deploy", package: "east" }],
      ["edge-west", { repo: "deploy", package: "west" }],
    ]);
    expect(variants[0].spec.packageContext).toEqual({ data: { tier: "edge" } });
  });

  it("evaluates the template's CEL expressions with Porch's inputs", () => {
    const parsed = parsePackageVariantSet(
      "f.yaml",
      set([
        {
          repositories: [{ name: "deploy", packageNames: ["east"] }],
          template: {
            downstream: { packageExpr: "'edge/' + packageDefault" },
            labelExprs: [{ key: "repo", valueExpr: "repository.name" }],
            packageContext: {
              dataExprs: [{ keyExpr: "'site'", valueExpr: "target.package + '-' + upstream.name" }],
            },
            pipeline: {
              mutators: [
                { image: "set-labels:v0.2", configMapExprs: [{ key: "pkg", valueExpr: "packageDefault" }] },
              ],
            },
          },
        },
      ]),
    )!;
    const { variants, errors } = expandVariantSet(parsed, "acme/deploy");
    expect(errors).toEqual([]);
    expect(variants[0].spec).toMatchObject({
      downstream: { repo: "deploy", package: "edge/east" },
      labels: { repo: "deploy" },
      packageContext: { data: { site: "east-blueprints.base.v2" } },
      pipeline: { mutators: [{ image: "set-labels:v0.2", configMap: { pkg: "east" } }] },
    });
  });

  it("reports what it cannot generate: selectors, expressions that fail", () => {
    const parsed = parsePackageVariantSet(
      "f.yaml",
      set([
        { repositorySelector: { matchLabels: { a: "b" } } },
        { repositories: [{ name: "deploy" }], template: { labelExprs: [{ key: "a", valueExpr: "nope.x" }] } },
      ]),
    )!;
    const { errors } = expandVariantSet(parsed, "acme/deploy");
    expect(errors[0]).toBe(
      "PackageVariantSet edge: spec.targets[0]: repositorySelector and objectSelector are not supported; list repositories",
    );
    expect(errors[1]).toMatch(
      /^PackageVariantSet edge: spec\.targets\[1\]: template\.labelExprs\[0\]\.valueExpr: /,
    );
  });
});
