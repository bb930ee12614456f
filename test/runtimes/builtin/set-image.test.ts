import { describe, expect, it } from "vitest";
import { isImageMatched, setImage, splitImage } from "../../../src/runtimes/builtin/set-image.js";
import { configMap, runBuiltin } from "../helpers.js";

const ITEMS = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
        - name: a
          image: nginx:1.20 # pinned
        - name: b
          image: postgres:14
---
apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
    - name: a
      image: nginx
---
apiVersion: x.io/v1
kind: Widget
metadata:
  name: w
spec:
  images:
    - image: nginx:1.0
`;

describe("set-image", () => {
  it("updates matching container images in workloads and pods", async () => {
    const out = await runBuiltin(
      setImage,
      ITEMS,
      configMap({ name: "nginx", newName: "bitnami/nginx", newTag: "1.21" }),
    );
    expect(out.yaml).toContain("image: bitnami/nginx:1.21 # pinned\n");
    expect(out.yaml).toContain("image: postgres:14\n");
    expect(out.yaml).toContain("      image: bitnami/nginx:1.21\n");
    expect(out.yaml).toContain("    - image: nginx:1.0\n");
    expect(out.results).toEqual([{ message: "summary: updated a total of 2 image(s)", severity: "info" }]);
  });

  it("follows additionalImageFields and digests", async () => {
    const out = await runBuiltin(
      setImage,
      ITEMS,
      `apiVersion: fn.kpt.dev/v1alpha1
kind: SetImage
metadata:
  name: c
image:
  name: nginx
  digest: sha256:abc
additionalImageFields:
  - kind: Widget
    path: spec/images[]/image
`,
    );
    expect(out.yaml).toContain("image: nginx@sha256:abc # pinned\n");
    expect(out.yaml).toContain("    - image: nginx@sha256:abc\n");
    expect(out.results.at(-1)?.message).toBe("summary: updated a total of 3 image(s)");
  });

  it("terminates without newName, newTag or digest", async () => {
    const out = await runBuiltin(setImage, ITEMS, configMap({ name: "nginx" }));
    expect(out.results).toEqual([
      { message: "must specify one of `newName`, `newTag`, or `digest`", severity: "error" },
      {
        message: "function is terminated: must specify one of `newName`, `newTag`, or `digest`",
        severity: "error",
      },
    ]);
  });

  it("splits and matches image references like kustomize", () => {
    expect(splitImage("reg:5000/app:1.2@sha256:ff")).toEqual({
      name: "reg:5000/app",
      tag: ":1.2",
      digest: "@sha256:ff",
    });
    expect(splitImage("app@sha256:ff")).toEqual({ name: "app", tag: "", digest: "@sha256:ff" });
    expect(isImageMatched("nginx:1.2", "nginx")).toBe(true);
    expect(isImageMatched("nginx-extra:1.2", "nginx")).toBe(false);
  });
});
