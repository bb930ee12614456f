/**
 * `set-image` (krm-functions-catalog): replaces container images whose name matches `image.name` in
 * Pods (`spec.containers`) and in the pod templates of Deployment, StatefulSet, ReplicaSet, DaemonSet
 * and PodTemplate, plus the kustomize field specs of `additionalImageFields`. Result:
 * `summary: updated a total of N image(s)`.
 */
import { isMap, isScalar, isSeq, type YAMLMap } from "yaml";
import type { FunctionResult, KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { type FieldSpec, parseFieldSpecs, specSelects, walkFieldSpec } from "./field-specs.js";
import { configMapData, configType, FN_CONFIG_GROUP, isEmptyConfig } from "./function-config.js";
import { getMap, getSeq, getString, scalarString, setMapString, toJs } from "./yaml-nodes.js";

interface ImageConfig {
  name: string;
  newName: string;
  newTag: string;
  digest: string;
}

class Terminate extends Error {}

/** kustomize `image.IsImageMatched`: the name, optionally followed by a digest marker and a tag. */
export function isImageMatched(value: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escaped}(@sha256)?(:[a-zA-Z0-9_.{}-]*)?$`).test(value);
}

/** Splits `registry:5000/app:1.2@sha256:abc` into name, `:tag` and `@digest` (prefixes kept). */
export function splitImage(image: string): { name: string; tag: string; digest: string } {
  const slash = Math.max(image.indexOf("/"), 0);
  const search = image.slice(slash);
  let id = search.indexOf("@");
  let ic = search.indexOf(":");
  if (ic < 0 && id < 0) return { name: image, tag: "", digest: "" };
  if (id >= 0 && (id < ic || ic < 0)) {
    id += slash;
    return { name: image.slice(0, id), tag: "", digest: image.slice(id) };
  }
  if (id >= 0 && ic >= 0) {
    id += slash;
    ic += slash;
    return { name: image.slice(0, ic), tag: image.slice(ic, id), digest: image.slice(id) };
  }
  ic += slash;
  return { name: image.slice(0, ic), tag: image.slice(ic), digest: "" };
}

function newImageFor(old: string, img: ImageConfig): string {
  let { name, tag } = splitImage(old);
  const { digest } = splitImage(old);
  if (img.newName) name = img.newName;
  if (img.newTag) tag = `:${img.newTag}`;
  if (img.digest) tag = `@${img.digest}`;
  return tag === "" ? name + digest : name + tag;
}

/** kustomize imagetag updater, used for `additionalImageFields`. */
function kustomizeImage(old: string, img: ImageConfig): string {
  let { name, tag, digest } = splitImage(old);
  tag = tag.replace(/^:/, "");
  digest = digest.replace(/^@/, "");
  if (img.newName) name = img.newName;
  if (img.newTag && img.digest) {
    tag = img.newTag;
    digest = img.digest;
  } else if (img.newTag) {
    tag = img.newTag;
    digest = "";
  } else if (img.digest) {
    tag = "";
    digest = img.digest;
  }
  return name + (tag ? `:${tag}` : "") + (digest ? `@${digest}` : "");
}

function readConfig(fc: KrmResource | undefined): {
  image: ImageConfig;
  specs: FieldSpec[];
  results: FunctionResult[];
} {
  const image: ImageConfig = { name: "", newName: "", newTag: "", digest: "" };
  const results: FunctionResult[] = [];
  let specs: FieldSpec[] = [];
  if (!fc || isEmptyConfig(fc)) {
    results.push({ message: "`FunctionConfig` is not given", severity: "info" });
  } else {
    const t = configType(fc);
    if (t.kind === "ConfigMap" && t.group === "") {
      const parsed = configMapData(fc);
      if ("error" in parsed) throw new Terminate(parsed.error);
      for (const [key, val] of parsed.data) {
        if (key === "name" || key === "newName" || key === "newTag" || key === "digest") image[key] = val;
        else throw new Terminate(`ConfigMap has wrong field name ${key}`);
      }
    } else if (t.kind === "SetImage" && t.group === FN_CONFIG_GROUP) {
      const raw = (toJs(fc.contents) ?? {}) as Record<string, unknown>;
      const img = (raw.image ?? {}) as Record<string, unknown>;
      for (const key of ["name", "newName", "newTag", "digest"] as const) {
        if (img[key] !== undefined && img[key] !== null) image[key] = String(img[key]);
      }
      specs = parseFieldSpecs(raw.additionalImageFields);
    } else {
      throw new Terminate(`unknown FunctionConfig \`${t.kind}\`, expect SetImage`);
    }
  }
  if (image.name === "") throw new Terminate("must specify `name`");
  if (!image.newName && !image.newTag && !image.digest) {
    throw new Terminate("must specify one of `newName`, `newTag`, or `digest`");
  }
  return { image, specs, results };
}

function updateContainers(podSpec: YAMLMap | undefined, img: ImageConfig): number {
  let count = 0;
  // The catalog reads "iniContainers" (sic), so init containers are left alone.
  for (const key of ["iniContainers", "containers"]) {
    for (const c of getSeq(podSpec, [key])?.items ?? []) {
      if (!isMap(c)) continue;
      const old = getString(c, ["image"]) ?? "";
      if (!isImageMatched(old, img.name)) continue;
      const next = newImageFor(old, img);
      if (next === old) continue;
      setMapString(c, "image", next);
      count += 1;
    }
  }
  return count;
}

/** The builtin `set-image`. */
export const setImage: BuiltinFunction = {
  name: "set-image",
  catalogVersion: "v0.1.1",
  run(input) {
    let config: ReturnType<typeof readConfig>;
    try {
      config = readConfig(input.functionConfig);
    } catch (err) {
      if (!(err instanceof Terminate)) throw err;
      return {
        items: input.items,
        results: [
          { message: err.message, severity: "error" },
          { message: `function is terminated: ${err.message}`, severity: "error" },
        ],
        stderr: `failed to evaluate function: function is terminated: ${err.message}`,
      };
    }
    const { image, specs, results } = config;
    let count = 0;
    for (const doc of input.items) {
      const kind = getString(doc, ["kind"]) ?? "";
      if (kind === "Pod") count += updateContainers(getMap(doc, ["spec"]), image);
      else if (["Deployment", "StatefulSet", "ReplicaSet", "DaemonSet", "PodTemplate"].includes(kind)) {
        count += updateContainers(getMap(doc, ["spec", "template", "spec"]), image);
      }
    }
    for (const doc of input.items) {
      for (const spec of specs) {
        if (!specSelects(spec, doc)) continue;
        walkFieldSpec(doc, spec, ({ parent, key }) => {
          const node: unknown = parent.get(key, true);
          const apply = (holder: YAMLMap, field: string, value: unknown) => {
            const old = scalarString(value);
            if (old === undefined || !isImageMatched(old, image.name)) return;
            setMapString(holder, field, kustomizeImage(old, image));
            count += 1;
          };
          if (isScalar(node)) apply(parent, key, node);
          else if (isSeq(node)) {
            for (const c of node.items) if (isMap(c)) apply(c, "image", c.get("image", true));
          }
        });
      }
    }
    results.push({ message: `summary: updated a total of ${count} image(s)`, severity: "info" });
    return { items: input.items, results };
  },
};
