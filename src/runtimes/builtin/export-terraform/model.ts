/**
 * The resource graph export-terraform builds from Config Connector resources before it writes
 * Terraform: every supported resource, and every resource one of them names (a parent folder, an
 * organization, a billing account, a network…) even when the package does not hold it. Parents come
 * from `spec.folderRef`, `spec.organizationRef`, the `cnrm.cloud.google.com/project-id` annotation
 * or `spec.resourceRef`; other references from the fields in {@link REFERENCES}.
 */
import { isMap, isScalar } from "yaml";
import type { KrmResource } from "../../../krm/resource-list.js";
import { decodeString, decodeStrings, goBool, goFloat, goInt, goNode, goString } from "../go-values.js";

/** A Terraform variable made of a value several resources share (the organization, the billing account). */
export interface TfVariable {
  name: string;
  description: string;
  default: string;
}

/** A (role, members) pair of an IAM policy, members in the order the package grants them. */
export interface IamBinding {
  role: string;
  members: string[];
}

/** One entry of an `IAMAuditConfig`'s `spec.auditLogConfigs`. */
export interface AuditLogConfig {
  logType: string;
  exemptedMembers: string[];
}

/** One entry of a `ComputeFirewall`'s `spec.allow`. */
export interface FirewallAllow {
  protocol: string;
  ports: string[];
}

/**
 * A failure while writing the Terraform that the catalog function reports as a Go template error
 * (a resource whose parent or reference is missing).
 */
export class TemplateError extends Error {}

interface ReferencePath {
  kind: string;
  read: (item: KrmResource) => string;
}

const NIL_POINTER = "runtime error: invalid memory address or nil pointer dereference";

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
const REFERENCES: readonly ReferencePath[] = [
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
const PARENTS: ReadonlyArray<{ kind: string; path: readonly string[] }> = [
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
    readonly graph: TfGraph,
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

/** The graph of one package's Config Connector resources. */
export class TfGraph {
  private readonly byKey = new Map<string, TfResource>();
  private groupedCache: Map<string, TfResource[]> | undefined;
  readonly variables = new Map<string, TfVariable>();

  /**
   * The node for `kind`/`name`, created when new; with an `item` the node becomes that resource and
   * its parent and references are attached.
   */
  ref(kind: string, name: string, item?: KrmResource): TfResource {
    const key = `${kind}/${name}`;
    let node = this.byKey.get(key);
    if (!node) {
      node = new TfResource(this, kind, name);
      this.byKey.set(key, node);
    }
    if (item) {
      node.item = item;
      this.attach(node, item);
    }
    return node;
  }

  private attach(node: TfResource, item: KrmResource): void {
    node.references = new Map();
    for (const { kind, read } of REFERENCES) {
      const name = read(item);
      if (name === "") continue;
      const target = this.ref(kind, name);
      target.children.push(node);
      node.references.set(kind, target);
    }
    for (const { kind, path } of PARENTS) {
      const name = goString(item, path) ?? "";
      if (name === "") continue;
      const parentKind = kind !== "" ? kind : (goString(item, [...path.slice(0, -1), "kind"]) ?? "");
      if (parentKind !== "") {
        const parent = this.ref(parentKind, name.trim());
        parent.children.push(node);
        node.parent = parent;
      }
      return;
    }
  }

  /** Nodes by kind, each kind's nodes ordered by name (`<kind>/<name>` sorted); computed once. */
  grouped(): Map<string, TfResource[]> {
    if (this.groupedCache) return this.groupedCache;
    const grouped = new Map<string, TfResource[]>();
    for (const key of [...this.byKey.keys()].sort(byteOrder)) {
      const node = this.byKey.get(key) as TfResource;
      const list = grouped.get(node.kind);
      if (list) list.push(node);
      else grouped.set(node.kind, [node]);
    }
    this.groupedCache = grouped;
    return grouped;
  }

  ofKind(kind: string): TfResource[] {
    return this.grouped().get(kind) ?? [];
  }

  /** `org_id` and `billing_account` variables when the graph holds exactly one of that kind. */
  makeVariables(): void {
    const candidates: Array<{ kind: string; name: string; description: string }> = [
      {
        kind: "Organization",
        name: "org_id",
        description: "The organization id for the associated resources",
      },
      {
        kind: "BillingAccount",
        name: "billing_account",
        description: "The ID of the billing account to associate projects with",
      },
    ];
    for (const c of candidates) {
      const ofKind = this.ofKind(c.kind);
      if (ofKind.length !== 1) continue;
      const variable: TfVariable = { name: c.name, description: c.description, default: ofKind[0].name };
      ofKind[0].variable = variable;
      this.variables.set(c.name, variable);
    }
  }
}

/** Go's string order (UTF-8 bytes; equal to UTF-16 order outside surrogates). */
export function byteOrder(a: string, b: string): number {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return Buffer.compare(ba, bb);
}

export { NIL_POINTER };
