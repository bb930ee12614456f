import { describe, expect, it } from "vitest";
import { configConnectorSchema } from "../../src/schemas/config-connector.js";

describe("Config Connector schemas (@kubernetes-models/gke)", () => {
  it("gives a kind's schema as the API server publishes it in OpenAPI v2", () => {
    const found = configConnectorSchema("resourcemanager.cnrm.cloud.google.com/v1beta1", "Folder");
    expect(found?.name).toBe("resourcemanager.cnrm.cloud.google.com.v1beta1.Folder");
    const schema = found?.schema as { properties: Record<string, Record<string, unknown>> };
    expect(schema.properties.metadata.$ref).toBe(
      "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    );
    const spec = schema.properties.spec as { properties: Record<string, unknown> };
    expect(spec.properties.displayName).toMatchObject({ type: "string" });
    // The CRD's oneOf between folderRef and organizationRef has no place in OpenAPI v2.
    expect(JSON.stringify(schema)).not.toMatch(/"(oneOf|anyOf|allOf|not)":/);
  });

  it("knows nothing of other groups, unknown kinds or names that are no kind", () => {
    expect(configConnectorSchema("apps/v1", "Deployment")).toBeUndefined();
    expect(configConnectorSchema("compute.cnrm.cloud.google.com/v1beta1", "NoSuchKind")).toBeUndefined();
    expect(configConnectorSchema("compute.cnrm.cloud.google.com/v1beta1", "../../package")).toBeUndefined();
    expect(configConnectorSchema("compute.cnrm.cloud.google.com/../x", "Folder")).toBeUndefined();
  });
});
