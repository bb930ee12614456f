import { describe, expect, it } from "vitest";
import { allowedDataRef, dataRefs } from "../../../../src/runtimes/builtin/gatekeeper/rego-refs.js";

describe("gatekeeper: data references of template Rego", () => {
  it("finds root data refs outside strings and comments, not fields named data", () => {
    const source = `package p
import data.lib.helpers
# data.in.a.comment
violation[{"msg": "data.in.a.string"}] {
  input.review.object.data[key]
  x := data.inventory.namespace[ns]["apps/v1"][_]
  y := data.kubernetes.namespaces[input.review.namespace]
  metadata := input.review.object.metadata
  z := \`data.raw\`
}`;
    expect(dataRefs(source)).toEqual([
      "data.lib.helpers",
      'data.inventory.namespace[ns]["apps/v1"][_]',
      "data.kubernetes.namespaces[input.review.namespace]",
    ]);
  });

  it("allows data.lib.* and data.inventory only", () => {
    expect(
      ["data.lib.x", "data.inventory", 'data["inventory"].cluster', "data.lib", "data.libs.x", "data.x"].map(
        allowedDataRef,
      ),
    ).toEqual([true, true, true, false, false, false]);
  });
});
