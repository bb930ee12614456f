import { describe, expect, it } from "vitest";
import {
  defaultKubernetesVersion,
  definitionNameFor,
  fieldSchema,
  kindSchema,
  kubernetesVersions,
  listMergeInfo,
  openApiDocument,
  openApiVersion,
  resolveKubernetesVersion,
  resourceSchema,
} from "../../src/schemas/kubernetes.js";

describe("Kubernetes schemas", () => {
  it("ships several Kubernetes versions, newest as default", () => {
    const versions = kubernetesVersions();
    expect(versions.length).toBeGreaterThan(10);
    expect(versions).toContain("1.16.4");
    expect(versions[versions.length - 1]).toBe("1.27.1");
    expect(defaultKubernetesVersion()).toBe("1.27.1");
    expect(openApiVersion()).toBe("1.17.0");
  });

  it("knows the APIs added after 1.17 in 1.27.1 (kubernetes-models' schemas)", () => {
    expect(definitionNameFor("batch/v1", "CronJob")).toBe("io.k8s.api.batch.v1.CronJob");
    expect(definitionNameFor("networking.k8s.io/v1", "Ingress")).toBe("io.k8s.api.networking.v1.Ingress");
    expect(definitionNameFor("policy/v1", "PodDisruptionBudget", "1.17")).toBeUndefined();
    const spec = kindSchema("apps/v1", "Deployment")?.schema.properties as Record<
      string,
      Record<string, unknown>
    >;
    // optional references are `nullable` $refs into the same document
    expect(spec.spec).toEqual({ $ref: "#/definitions/io.k8s.api.apps.v1.DeploymentSpec", nullable: true });
    expect(openApiDocument("1.27").definitions["io.k8s.api.apps.v1.DeploymentSpec"].required).toEqual([
      "selector",
      "template",
    ]);
  });

  it("resolves requested versions", () => {
    expect(resolveKubernetesVersion("v1.16.4")).toBe("1.16.4");
    expect(resolveKubernetesVersion("1.16")).toBe("1.16.4");
    expect(resolveKubernetesVersion("1.16.2")).toBe("1.16.4");
    expect(resolveKubernetesVersion("master")).toBe(defaultKubernetesVersion());
    expect(resolveKubernetesVersion("1.99.0")).toBeUndefined();
    expect(resolveKubernetesVersion("banana")).toBeUndefined();
  });

  it("finds a kind's definition by apiVersion and kind", () => {
    expect(definitionNameFor("apps/v1", "Deployment")).toBe("io.k8s.api.apps.v1.Deployment");
    expect(definitionNameFor("v1", "ReplicationController")).toBe("io.k8s.api.core.v1.ReplicationController");
    expect(definitionNameFor("custom.io/v1", "Custom")).toBeUndefined();
    expect(definitionNameFor("kpt.dev/v1", "Kptfile")).toBeUndefined();
    // apps/v1 did not exist before Kubernetes 1.9
    expect(definitionNameFor("apps/v1", "Deployment", "1.8.0")).toBeUndefined();
    expect(kindSchema("apps/v1", "Deployment")?.schema.type).toBe("object");
  });

  it("exposes the OpenAPI document with Kubernetes' extensions", () => {
    expect(openApiDocument().info.version).toBe("v1.17.0");
    const doc = openApiDocument("1.16.4");
    expect(doc.swagger).toBe("2.0");
    expect(doc.info.version).toBe("v1.16.4");
    expect(Object.keys(doc.definitions)).toContain("io.k8s.api.core.v1.PodSpec");
    expect(openApiDocument("1.16.4")).toBe(doc);
    expect(() => openApiDocument("0.1.0")).toThrow(/no Kubernetes schemas for version "0.1.0"/);
  });

  it("gives list merge keys by field path", () => {
    const containers = ["spec", "template", "spec", "containers"];
    expect(listMergeInfo("apps/v1", "Deployment", containers)).toEqual({
      mergeKey: "name",
      patchStrategy: "merge",
    });
    expect(listMergeInfo("apps/v1", "Deployment", [...containers, "ports"])).toMatchObject({
      mergeKey: "containerPort",
      listType: "map",
      listMapKeys: ["containerPort", "protocol"],
    });
    expect(listMergeInfo("v1", "Pod", ["spec", "containers", "env"])).toMatchObject({ mergeKey: "name" });
    expect(listMergeInfo("apps/v1", "Deployment", [...containers, "args"])).toEqual({});
    expect(listMergeInfo("apps/v1", "Deployment", ["spec", "replicas"])).toBeUndefined();
    expect(listMergeInfo("apps/v1", "Deployment", ["spec", "nope"])).toBeUndefined();
    expect(fieldSchema("apps/v1", "Deployment", ["spec", "replicas"])?.type).toBe("integer");
  });

  it("walks a kind's schema field by field (kyaml's ResourceSchema)", () => {
    const deployment = resourceSchema("apps/v1", "Deployment");
    const containers = deployment?.field("spec")?.field("template")?.field("spec")?.field("containers");
    expect(containers?.merge).toEqual({ mergeKey: "name", patchStrategy: "merge" });
    const ports = containers?.elements()?.field("ports");
    expect(ports?.merge).toMatchObject({
      mergeKey: "containerPort",
      listMapKeys: ["containerPort", "protocol"],
    });
    // a map's values: labels are strings
    expect(deployment?.field("metadata")?.field("labels")?.field("app")?.schema.type).toBe("string");
    expect(deployment?.field("nope")).toBeUndefined();
    expect(resourceSchema("example.com/v1", "Widget")).toBeUndefined();
  });
});
