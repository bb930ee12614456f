import { describe, expect, it } from "vitest";
import {
  batchAnnotations,
  buildAnnotations,
  limitAnnotations,
  type PackageReport,
  reportAnnotations,
  yamlErrorAnnotation,
} from "../../src/report/annotations.js";
import { pkgReport, step } from "./fixtures.js";

const deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n";

describe("buildAnnotations", () => {
  it("makes one annotation per result that names a file, with repository paths and levels from severity", () => {
    const pkg = pkgReport({
      packagePath: "apps/web",
      files: { "deploy.yaml": deploy, Kptfile: "kind: Kptfile\n" },
      steps: [
        step({
          name: "kubeval",
          kind: "validator",
          exitCode: 1,
          results: [
            {
              message: "replicas must be 1",
              severity: "error",
              file: { path: "deploy.yaml", index: 0 },
              field: { path: "spec.replicas" },
            },
            { message: "looks odd", severity: "warning", file: { path: "deploy.yaml" } },
            {
              message: "fyi",
              severity: "info",
              resourceRef: { kind: "Deployment", name: "web" },
              file: { path: "deploy.yaml" },
            },
            { message: "no file here", severity: "error" },
          ],
        }),
      ],
    });
    expect(buildAnnotations([pkg])).toEqual([
      {
        path: "apps/web/deploy.yaml",
        start_line: 6,
        end_line: 6,
        start_column: 3,
        end_column: 14,
        annotation_level: "failure",
        message: "replicas must be 1",
        title: "validator kubeval",
        raw_details: "field: spec.replicas",
      },
      {
        path: "apps/web/deploy.yaml",
        start_line: 1,
        end_line: 1,
        annotation_level: "warning",
        message: "looks odd",
        title: "validator kubeval",
      },
      {
        path: "apps/web/deploy.yaml",
        start_line: 1,
        end_line: 1,
        annotation_level: "notice",
        message: "fyi",
        title: "validator kubeval",
      },
    ]);
  });

  it("resolves a subpackage step's file relative to the subpackage", () => {
    const pkg = pkgReport({
      packagePath: "",
      files: { "db/svc.yaml": "kind: Service\nmetadata:\n  name: db\n" },
      steps: [
        step({
          name: "set-labels",
          packagePath: "./db",
          results: [
            { message: "m", severity: "info", file: { path: "svc.yaml" }, field: { path: "metadata.name" } },
          ],
        }),
      ],
    });
    const [a] = buildAnnotations([pkg]);
    expect(a?.path).toBe("db/svc.yaml");
    expect(a?.start_line).toBe(3);
  });

  it("uses line 1 when the file cannot be read or parsed", () => {
    const pkg = pkgReport({
      packagePath: "p",
      files: { "bad.yaml": "a: [unclosed\n" },
      steps: [
        step({
          name: "f",
          results: [{ message: "m", severity: "error", file: { path: "gone.yaml", index: 2 } }],
        }),
      ],
    });
    expect(buildAnnotations([pkg])[0]).toMatchObject({ path: "p/gone.yaml", start_line: 1, end_line: 1 });
  });
});

describe("batchAnnotations", () => {
  it("splits into batches of at most 50", () => {
    const many = Array.from({ length: 120 }, (_, i) => ({
      path: "a",
      start_line: i + 1,
      end_line: i + 1,
      annotation_level: "notice" as const,
      message: String(i),
    }));
    expect(batchAnnotations(many).map((b) => b.length)).toEqual([50, 50, 20]);
    expect(batchAnnotations([])).toEqual([]);
  });
});

describe("reportAnnotations", () => {
  it("builds only the annotations it keeps, locating each in a file parsed once, and counts the rest", () => {
    const docs = Array.from(
      { length: 300 },
      (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n`,
    );
    const pkg = pkgReport({
      packagePath: "p",
      files: { "cms.yaml": docs.join("---\n"), Kptfile: "kind: Kptfile\n" },
      steps: [
        step({
          name: "kubeconform",
          kind: "validator",
          exitCode: 1,
          results: docs.map((_, i) => ({
            message: `bad ${i}`,
            severity: "error" as const,
            resourceRef: { apiVersion: "v1", kind: "ConfigMap", name: `cm-${i}` },
            file: { path: "cms.yaml", index: i },
          })),
        }),
      ],
    });
    const { annotations, omitted } = reportAnnotations([pkg], 5);
    expect(annotations.map((a) => [a.path, a.start_line, a.message])).toEqual(
      [0, 1, 2, 3, 4].map((i) => ["p/cms.yaml", 1 + 5 * i, `bad ${i}`]),
    );
    expect(omitted).toBe(295);
  });
});

describe("limitAnnotations", () => {
  it("keeps at most the limit and counts what it left out", () => {
    const many = Array.from({ length: 7 }, (_, i) => ({
      path: "a",
      start_line: i + 1,
      end_line: i + 1,
      annotation_level: "notice" as const,
      message: String(i),
    }));
    const { annotations, omitted } = limitAnnotations(many, 5);
    expect(annotations.map((a) => a.message)).toEqual(["0", "1", "2", "3", "4"]);
    expect(omitted).toBe(2);
    expect(limitAnnotations(many).omitted).toBe(0);
  });
});

describe("yamlErrorAnnotation", () => {
  const failed = (packagePath: string, error: string) =>
    ({
      packagePath,
      inputFiles: new Map(),
      result: { ok: false, error, steps: [] },
    }) as unknown as PackageReport;

  it("annotates a resource file that is not valid YAML at its file and line", () => {
    expect(
      yamlErrorAnnotation(
        failed("apps/web", "pkg.render: pkg .: sub/bad.yaml: yaml: line 5: did not find expected key"),
      ),
    ).toEqual({
      path: "apps/web/sub/bad.yaml",
      start_line: 5,
      end_line: 5,
      annotation_level: "failure",
      title: "Invalid YAML",
      message: "yaml: line 5: did not find expected key",
    });
  });

  it("annotates a Kptfile that is not valid YAML, also in a subpackage", () => {
    expect(
      yamlErrorAnnotation(
        failed(
          "",
          'error reading Kptfile at ".": yaml: line 3: mapping values are not allowed in this context',
        ),
      ),
    ).toMatchObject({
      path: "Kptfile",
      start_line: 3,
      title: "Invalid Kptfile",
    });
    expect(
      yamlErrorAnnotation(
        failed("pkg", 'pkg.render: pkg .:\n\terror reading Kptfile at "./db": yaml: line 2: x'),
      ),
    ).toMatchObject({
      path: "pkg/db/Kptfile",
      start_line: 2,
    });
  });

  it("is undefined for a render that did not fail on YAML", () => {
    expect(
      yamlErrorAnnotation(failed("p", "pkg.render: pkg .:\n\tpipeline.run: already handled error")),
    ).toBeUndefined();
  });
});
