/**
 * `@kubernetes-models/gke`'s generator drops every property named `description` with the documentation
 * text; the kind's `.d.ts` still declares them, and the Config Connector schemas get them back.
 */
import { describe, expect, it } from "vitest";
import { configConnectorSchema } from "../../src/schemas/config-connector.js";
import { declaredDescriptionFields } from "../../src/schemas/description-fields.js";

type Schema = { properties: Record<string, Schema>; items?: Schema; required?: string[] };

function spec(apiVersion: string, kind: string): Schema {
  const found = configConnectorSchema(apiVersion, kind);
  if (!found) throw new Error(`no schema for ${apiVersion} ${kind}`);
  return (found.schema as Schema).properties.spec;
}

describe("description fields of Config Connector kinds", () => {
  it("reads where a .d.ts declares description: string, through arrays, maps and unions", () => {
    const dts = `export interface IThing {
    "spec": {
        /**
         * Doc text with {braces} inside.
         */
        "description"?: string;
        "rules"?: Array<{
            "description": string;
        }>;
        "byName"?: {
            [key: string]: {
                "description"?: string;
            };
        };
    } & ({
        "a": string;
    } | {
        "nested": {
            "description"?: string;
        };
    });
}
export declare class Thing {}
`;
    expect(declaredDescriptionFields(dts)).toEqual([
      { path: ["spec"], required: false },
      { path: ["spec", "rules", "[]"], required: true },
      { path: ["spec", "byName", "{}"], required: false },
      { path: ["spec", "nested"], required: false },
    ]);
  });

  it("restores ComputeInstance's and OSConfigOSPolicyAssignment's spec.description (Config Connector's CRDs)", () => {
    const instance = spec("compute.cnrm.cloud.google.com/v1beta1", "ComputeInstance");
    expect(instance.properties.description).toEqual({ type: "string", nullable: true });
    const assignment = spec("osconfig.cnrm.cloud.google.com/v1beta1", "OSConfigOSPolicyAssignment");
    expect(assignment.properties.description).toEqual({ type: "string", nullable: true });
    expect(assignment.properties.osPolicies.items?.properties.description).toEqual({
      type: "string",
      nullable: true,
    });
  });

  it("restores a required one as required", () => {
    const job = spec("storagetransfer.cnrm.cloud.google.com/v1beta1", "StorageTransferJob");
    expect(job.required).toContain("description");
    expect(job.properties.description).toEqual({ type: "string" });
  });
});
