/**
 * The resource graph export-terraform builds from Config Connector resources before it writes
 * Terraform: every supported resource, and every resource one of them names (a parent folder, an
 * organization, a billing account, a network…) even when the package does not hold it. Parents come
 * from `spec.folderRef`, `spec.organizationRef`, the `cnrm.cloud.google.com/project-id` annotation
 * or `spec.resourceRef`; other references from the fields in {@link REFERENCES}.
 */
import type { KrmResource } from "../../../krm/resource-list.js";
import { goString } from "../go-values.js";
import { PARENTS, REFERENCES, TfResource } from "./tf-resource.js";
import { byteOrder, type TfVariable } from "./tf-types.js";

export type { TfResource } from "./tf-resource.js";
export { byteOrder, NIL_POINTER, TemplateError } from "./tf-types.js";

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
