/**
 * `enable-gcp-services` (krm-functions-catalog): every `ProjectServiceSet`
 * (`blueprints.cloud.google.com/v1alpha1`) generates one Config Connector `Service`
 * (`serviceusage.cnrm.cloud.google.com/v1beta1`) per entry of `spec.services`, named
 * `<set name>-<service short name>`, in its own file `service_<name>.yaml` next to the set (under a
 * namespace directory when the set has a namespace). Services a set generated before (annotated
 * `blueprints.cloud.google.com/ownerReference: blueprints.cloud.google.com/ProjectServiceSet/<name>`)
 * are pruned first, so removed services disappear and kept ones are regenerated. The set becomes
 * local config. Results: `generated service`, `pruned service` or `recreated service` per Service.
 */
import { Document, Scalar, type YAMLMap } from "yaml";
import { INTERNAL_PATH, PIPELINE_ANNOTATIONS } from "../../krm/annotations.js";
import type { FunctionResult, KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { ensureMap, fileOf, getAnnotation, getMap, getSeq, getString, scalarString } from "./yaml-nodes.js";

const SET_GROUP = "blueprints.cloud.google.com";
const SET_KIND = "ProjectServiceSet";
const SET_API_VERSION = `${SET_GROUP}/v1alpha1`;
const SERVICE_API_VERSION = "serviceusage.cnrm.cloud.google.com/v1beta1";
const OWNER_ANNOTATION = "blueprints.cloud.google.com/ownerReference";
const LOCAL_CONFIG = "config.kubernetes.io/local-config";
const NOT_COPIED = new Set<string>([...PIPELINE_ANNOTATIONS, LOCAL_CONFIG]);

class ServiceError extends Error {}

/** kyaml's `SetAnnotation`: the value is written single-quoted. */
function setAnnotation(doc: KrmResource, key: string, value: string): void {
  const annotations = ensureMap(doc, ["metadata", "annotations"]) as YAMLMap;
  const scalar = new Scalar(value);
  scalar.type = Scalar.QUOTE_SINGLE;
  annotations.set(key, scalar);
}

/** kyaml's `CreatePathAnnotationValue`: `<dir>/<namespace>/<kind>_<name>.yaml`. */
function generatedPath(setPath: string, kind: string, name: string, namespace: string): string {
  const slash = setPath.lastIndexOf("/");
  const parts = [slash < 0 ? "" : setPath.slice(0, slash), namespace, `${kind.toLowerCase()}_${name}.yaml`];
  return parts.filter((p) => p !== "").join("/");
}

interface Tracked {
  key: string;
  result: FunctionResult;
}

function identity(doc: KrmResource): { ref: FunctionResult["resourceRef"]; key: string } {
  const apiVersion = getString(doc, ["apiVersion"]) ?? "";
  const kind = getString(doc, ["kind"]) ?? "";
  const name = getString(doc, ["metadata", "name"]) ?? "";
  const namespace = getString(doc, ["metadata", "namespace"]) ?? "";
  const ref: NonNullable<FunctionResult["resourceRef"]> = { apiVersion, kind, name };
  if (namespace !== "") ref.namespace = namespace;
  return { ref, key: `${apiVersion}|${kind}|${namespace}|${name}` };
}

function tracked(doc: KrmResource, message: string): Tracked {
  const { ref, key } = identity(doc);
  return {
    key,
    result: { message, severity: "info", resourceRef: ref, file: { path: fileOf(doc)?.path ?? "" } },
  };
}

function generateServices(set: KrmResource): KrmResource[] {
  const name = getString(set, ["metadata", "name"]) ?? "";
  const namespace = getString(set, ["metadata", "namespace"]) ?? "";
  const services = (getSeq(set, ["spec", "services"])?.items ?? []).map((i) => scalarString(i) ?? "");
  if (services.length < 1)
    throw new ServiceError("at least one service must be specified under `spec.services[]`");
  const projectID = getString(set, ["spec", "projectID"]) ?? "";
  const setPath = getAnnotation(set, INTERNAL_PATH) ?? fileOf(set)?.path ?? "";
  return services.map((service) => {
    if (service.split(".").length < 3) throw new ServiceError(`invalid service specified: ${service}`);
    const serviceName = `${name}-${service.split(".")[0]}`;
    const spec: Record<string, unknown> = { resourceID: service };
    if (projectID !== "") spec.projectRef = { external: projectID };
    const doc = new Document({
      apiVersion: SERVICE_API_VERSION,
      kind: "Service",
      metadata: { name: serviceName },
      spec,
    }) as KrmResource;
    for (const pair of getMap(set, ["metadata", "annotations"])?.items ?? []) {
      const key = scalarString(pair.key) ?? "";
      const value = scalarString(pair.value);
      if (NOT_COPIED.has(key) || value === undefined) continue;
      setAnnotation(doc, key, value);
    }
    setAnnotation(doc, OWNER_ANNOTATION, `${SET_GROUP}/${SET_KIND}/${name}`);
    if (namespace !== "") ensureMap(doc, ["metadata"])?.set("namespace", namespace);
    setAnnotation(doc, INTERNAL_PATH, generatedPath(setPath, "Service", serviceName, namespace));
    return doc;
  });
}

function byFileThenText(a: FunctionResult, b: FunctionResult): number {
  const pa = a.file?.path ?? "";
  const pb = b.file?.path ?? "";
  if (pa !== pb) return pa < pb ? -1 : 1;
  const ia = a.file?.index ?? 0;
  const ib = b.file?.index ?? 0;
  if (ia !== ib) return ia - ib;
  const ta = `${JSON.stringify(a.resourceRef)}|${a.message}`;
  const tb = `${JSON.stringify(b.resourceRef)}|${b.message}`;
  return ta < tb ? -1 : ta > tb ? 1 : 0;
}

/** The builtin `enable-gcp-services`. */
export const enableGcpServices: BuiltinFunction = {
  name: "enable-gcp-services",
  catalogVersion: "v0.1.0",
  run(input) {
    let items = input.items;
    const generated: KrmResource[] = [];
    const results: FunctionResult[] = [];
    try {
      const sets = items.filter(
        (doc) => getString(doc, ["apiVersion"]) === SET_API_VERSION && getString(doc, ["kind"]) === SET_KIND,
      );
      for (const set of sets) {
        if (getAnnotation(set, LOCAL_CONFIG) !== "true") setAnnotation(set, LOCAL_CONFIG, "true");
      }
      for (const set of sets) {
        const owner = `${SET_GROUP}/${SET_KIND}/${getString(set, ["metadata", "name"]) ?? ""}`;
        const services = generateServices(set);
        const pruned = new Map<string, Tracked>();
        items = items.filter((doc) => {
          if (getAnnotation(doc, OWNER_ANNOTATION) !== owner) return true;
          const t = tracked(doc, "pruned service");
          pruned.set(t.key, t);
          return false;
        });
        const fresh = new Map<string, Tracked>();
        for (const doc of services) {
          const t = tracked(doc, "generated service");
          fresh.set(t.key, t);
        }
        for (const [key, t] of pruned) {
          const again = fresh.get(key);
          if (again) {
            t.result.message = "recreated service";
            t.result.file = again.result.file;
            fresh.delete(key);
          }
          results.push(t.result);
        }
        for (const t of fresh.values()) results.push(t.result);
        generated.push(...services);
      }
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      const message = `failed to add services: ${err.message}`;
      return { items: input.items, results: [{ message, severity: "error" }], stderr: err.message };
    }
    results.sort(byFileThenText);
    return { items: [...items, ...generated], results };
  },
};
