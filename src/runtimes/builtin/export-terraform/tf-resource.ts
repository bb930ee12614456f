/**
 * One node of export-terraform's graph: a Config Connector resource (or one a resource names that the
 * package does not hold), its parent and references ({@link REFERENCES}), and its decoded fields.
 */
import { isMap, isScalar } from "yaml";
import type { KrmResource } from "../../../krm/resource-list.js";
import { decodeString, decodeStrings, goBool, goFloat, goInt, goNode, goString } from "../go-values.js";
import {
  type AuditLogConfig,
  type FirewallAllow,
  type IamBinding,
  NIL_POINTER,
  TemplateError,
  type TfVariable,
} from "./tf-types.js";

interface ReferencePath {
  kind: string;
  read: (item: KrmResource) => string;
}

/** The text at a field, trimmed, or "" (the catalog's GetStringFromObject + TrimSpace). */
function trimmed(path: readonly string[]): (item: KrmResource) => string {
  return (item) => (goString(item, path) ?? "").trim();
}

/** The `name` of the first entry of a list of references (`spec.natIps[0].name`). */
function firstName(path: readonly string[]): (item: KrmResource) => string {
  return (item) => {
    const list = goNode(item, path);
    if (!list || !(typeof list === "object" && "items" in list)) return "";
    const first = (list as { items: unknown[] }).items[0];
    if (!isMap(first)) return "";
    const name = first.items.find((p) => isScalar(p.key) && p.key.value === "name");
    return name ? (decodeString(name.value) ?? "") : "";
  };
}

/** The last path segment of an external log bucket (`projects/p/locations/global/buckets/b` → `b`). */
function lastSegment(path: readonly string[]): (item: KrmResource) => string {
  return (item) => {
    const external = goString(item, path);
    if (external === undefined) return "";
    return external.slice(external.lastIndexOf("/") + 1);
  };
}

/** References other than the parent, by the kind they name. */
export const REFERENCES: readonly ReferencePath[] = [
  { kind: "BillingAccount", read: trimmed(["spec", "billingAccountRef", "external"]) },
  { kind: "BigQueryDataset", read: trimmed(["spec", "destination", "bigQueryDatasetRef", "name"]) },
  { kind: "PubSubTopic", read: trimmed(["spec", "destination", "pubSubTopicRef", "name"]) },
  { kind: "StorageBucket", read: trimmed(["spec", "destination", "storageBucketRef", "name"]) },
  { kind: "ComputeNetwork", read: trimmed(["spec", "networkRef", "name"]) },
  { kind: "ComputeRouter", read: trimmed(["spec", "routerRef", "name"]) },
  { kind: "ComputeAddress", read: firstName(["spec", "natIps"]) },
  { kind: "ComputeAddress", read: firstName(["spec", "reservedPeeringRanges"]) },
  { kind: "LoggingLogBucket", read: lastSegment(["spec", "destination", "loggingLogBucketRef", "external"]) },
];

/** Where a resource names its parent, in order; an empty kind is read from the reference's `kind`. */
export const PARENTS: ReadonlyArray<{ kind: string; path: readonly string[] }> = [
  { kind: "Folder", path: ["spec", "folderRef", "name"] },
  { kind: "Folder", path: ["spec", "folderRef", "external"] },
  { kind: "Organization", path: ["spec", "organizationRef", "external"] },
  { kind: "Project", path: ["metadata", "annotations", "cnrm.cloud.google.com/project-id"] },
  { kind: "", path: ["spec", "resourceRef", "external"] },
  { kind: "", path: ["spec", "resourceRef", "name"] },
];

/** One node of the graph: a resource of the package (`item`) or one only named by others. */
export class TfResource {
  item: KrmResource | undefined;
  parent: TfResource | undefined;
  readonly children: TfResource[] = [];
  references = new Map<string, TfResource>();
  variable: TfVariable | undefined;

  constructor(
    /** The graph it belongs to (for names among the resources of its kind). */
    readonly graph: { grouped(): Map<string, TfResource[]> },
    readonly kind: string,
    readonly name: string,
  ) {}

  /** Whether Terraform creates this resource (it is in the package). */
  get created(): boolean {
    return this.item !== undefined;
  }

  str(...path: string[]): string {
    return this.item ? (goString(this.item, path) ?? "") : "";
  }

  int(...path: string[]): number {
    return this.item ? (goInt(this.item, path) ?? 0) : 0;
  }

  float(...path: string[]): number {
    return this.item ? (goFloat(this.item, path) ?? 0) : 0;
  }

  /** The catalog's GetBool: a bool field that is true (a string "true" does not count). */
  bool(...path: string[]): boolean {
    return this.item ? goBool(this.item, path).value : false;
  }

  strings(...path: string[]): string[] {
    return this.item ? (decodeStrings(goNode(this.item, path)) ?? []) : [];
  }

  /** `spec.displayName`, else `spec.name`, else `metadata.name`. */
  displayName(): string {
    const item = this.requireItem("GetDisplayName");
    return (
      goString(item, ["spec", "displayName"]) ??
      goString(item, ["spec", "name"]) ??
      goString(item, ["metadata", "name"]) ??
      ""
    );
  }

  /**
   * The Terraform name: a created resource's own name with characters other than letters, digits,
   * `_` and `-` replaced by `-`; otherwise the kind in lower case, numbered (`folder-2`) when the
   * graph holds several of that kind.
   */
  resourceName(): string {
    if (this.created && this.name !== "") return this.name.replace(/[^a-zA-Z0-9_-]/gu, "-");
    const ofKind = this.graph.grouped().get(this.kind) ?? [];
    if (ofKind.length < 2) return this.kind.toLowerCase();
    const i = ofKind.findIndex((r) => r.name === this.name);
    return i < 0 ? "" : `${this.kind.toLowerCase()}-${i + 1}`;
  }

  /**
   * How Terraform names this resource as a parent: `google_folder.<name>.name` when created; else
   * with `prefix` `"organizations/<id>"` / `"folders/<id>"` (through its variable when it has one),
   * without it the bare id (`var.org_id` or `"<id>"`).
   */
  terraformId(prefix = true): string {
    if (this.created) return `google_folder.${this.resourceName()}.name`;
    const v = this.variable;
    if (!prefix) return v ? `var.${v.name}` : `"${this.name}"`;
    if (this.kind === "Organization")
      return v ? `"organizations/\${var.${v.name}}"` : `"organizations/${this.name}"`;
    return v ? `"folders/\${var.${v.name}}"` : `"folders/${this.name}"`;
  }

  childrenOfKind(kind: string): TfResource[] {
    return this.children.filter((c) => c.kind === kind);
  }

  /** The organization a project or log sink belongs to: its parent, else the graph's first one. */
  organization(): TfResource | undefined {
    if (!this.parent) throw new TemplateError(`error calling GetOrganization: ${NIL_POINTER}`);
    if (this.parent.kind === "Organization") return this.parent;
    return this.graph.grouped().get("Organization")?.[0];
  }

  /**
   * The IAM bindings its IAMPolicyMember / IAMPartialPolicy / IAMPolicy children grant, by role; a
   * policy without readable `spec.bindings` is skipped and logged as the catalog logs it.
   */
  iamBindings(log: string[]): Map<string, string[]> {
    const byRole = new Map<string, string[]>();
    const add = (role: string, member: string) => {
      const members = byRole.get(role);
      if (members) members.push(member);
      else byRole.set(role, [member]);
    };
    for (const child of this.children) {
      if (child.kind === "IAMPolicyMember") {
        add(child.str("spec", "role"), child.str("spec", "member"));
      } else if (child.kind === "IAMPartialPolicy" || child.kind === "IAMPolicy") {
        const node = child.item ? goNode(child.item, ["spec", "bindings"]) : undefined;
        const bindings = node === undefined ? undefined : decodeBindings(node);
        if (!bindings) {
          const why =
            node === undefined
              ? "(found = false): %!s(<nil>)"
              : "(found = true): unable to decode spec.bindings";
          log.push(`Failure to find bindings in ${this.name} ${why}\n`);
          continue;
        }
        for (const binding of bindings) for (const member of binding.members) add(binding.role, member);
      }
    }
    return byRole;
  }

  auditLogConfigs(): AuditLogConfig[] {
    return decodeList(this.item && goNode(this.item, ["spec", "auditLogConfigs"]), (entry) => ({
      logType: fieldString(entry, "logType"),
      exemptedMembers: fieldStrings(entry, "exemptedMembers"),
    }));
  }

  firewallAllows(): FirewallAllow[] {
    return decodeList(this.item && goNode(this.item, ["spec", "allow"]), (entry) => ({
      protocol: fieldString(entry, "protocol"),
      ports: fieldStrings(entry, "ports"),
    }));
  }

  /** A project that a ComputeSharedVPCHostProject child (by its project-id annotation) makes a Shared VPC host. */
  isSharedVpcHost(): boolean {
    if (this.kind !== "Project" || !this.item) return false;
    const projectId = goString(this.item, ["metadata", "name"]);
    if (projectId === undefined) return false;
    return this.childrenOfKind("ComputeSharedVPCHostProject").some(
      (c) =>
        c.item &&
        goString(c.item, ["metadata", "annotations", "cnrm.cloud.google.com/project-id"]) === projectId,
    );
  }

  private requireItem(method: string): KrmResource {
    if (!this.item) throw new TemplateError(`error calling ${method}: ${NIL_POINTER}`);
    return this.item;
  }
}

function entryValue(entry: unknown, key: string): unknown {
  if (!isMap(entry)) return undefined;
  return entry.items.find((p) => isScalar(p.key) && p.key.value === key)?.value;
}

function fieldString(entry: unknown, key: string): string {
  return decodeString(entryValue(entry, key)) ?? "";
}

function fieldStrings(entry: unknown, key: string): string[] {
  return decodeStrings(entryValue(entry, key)) ?? [];
}

/** yaml.v3's decoding of a list of structs: entries that are no maps decode to zero values. */
function decodeList<T>(node: unknown, decode: (entry: unknown) => T): T[] {
  if (!node || typeof node !== "object" || !("items" in node) || isMap(node)) return [];
  return (node as { items: unknown[] }).items.map(decode);
}

/** `spec.bindings` of an IAM policy; undefined when it does not decode (the catalog skips that policy). */
function decodeBindings(node: unknown): IamBinding[] | undefined {
  if (!node || typeof node !== "object" || !("items" in node) || isMap(node)) return undefined;
  const out: IamBinding[] = [];
  for (const entry of (node as { items: unknown[] }).items) {
    if (entry !== null && !isMap(entry) && !(isScalar(entry) && entry.value === null)) return undefined;
    const role = decodeString(entryValue(entry, "role"));
    const members = entryValue(entry, "members");
    if (role === undefined) return undefined;
    const list: string[] = [];
    if (members !== undefined && members !== null && !(isScalar(members) && members.value === null)) {
      if (!(typeof members === "object" && "items" in members) || isMap(members)) return undefined;
      for (const m of (members as { items: unknown[] }).items) {
        const member = m === null || isMap(m) ? decodeString(entryValue(m, "member")) : undefined;
        if (member === undefined) return undefined;
        list.push(member);
      }
    }
    out.push({ role, members: list });
  }
  return out;
}
