import { describe, expect, it } from "vitest";
import { overrideAnnotations } from "../../src/report/upgrade.js";

const text = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
        - name: side
          image: side:1
        - name: web
          image: nginx:1.27
`;

describe("upgrade reports", () => {
  it("puts a warning at the line of each overridden field, list elements found by their merge key", () => {
    const annotations = overrideAnnotations({
      packagePath: "east/app",
      text: (file) => (file === "east/app/deploy.yaml" ? text : undefined),
      overrides: [
        {
          file: "deploy.yaml",
          resource: { apiVersion: "apps/v1", kind: "Deployment", namespace: "", name: "web" },
          path: ["spec", "template", "spec", "containers", "[name=web]", "image"],
          kind: "changed",
          local: "nginx:local",
          upstream: "nginx:1.27",
          original: "nginx:1.25",
        },
      ],
    });
    expect(annotations).toEqual([
      {
        path: "east/app/deploy.yaml",
        start_line: 12,
        end_line: 12,
        annotation_level: "warning",
        title: "Local edit overridden by upstream",
        message:
          "deploy.yaml Deployment/web spec.template.spec.containers[name=web].image: your nginx:local becomes upstream's nginx:1.27 (was nginx:1.25)",
      },
    ]);
  });
});
