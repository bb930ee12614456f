/** Collections (OPA's `parseArray`, `parseSetOrObject`): arrays, objects, sets and their comprehensions. */
import type { Pos } from "../errors.js";
import type { Term } from "./ast.js";
import { TermParser } from "./terms.js";

export abstract class CollectionParser extends TermParser {
  arrayTerm(pos: Pos): Term {
    this.next();
    if (this.isP("]")) {
      this.next();
      return this.suffixes({ t: "array", items: [], pos });
    }
    let first = this.term(false);
    if (this.isP("|")) {
      const u = this.unionInCollection(first, "]");
      if (u === undefined) {
        this.next();
        const body = this.literals("]");
        this.expectP("]");
        return this.suffixes({ t: "arraycompr", term: first, body, pos });
      }
      first = u;
    }
    const items = [this.continueOr(first)];
    while (this.isP(",")) {
      this.next();
      if (this.isP("]")) break;
      items.push(this.term());
    }
    this.expectP("]");
    return this.suffixes({ t: "array", items, pos });
  }

  braceTerm(pos: Pos): Term {
    this.next();
    if (this.isP("}")) {
      this.next();
      return this.suffixes({ t: "object", items: [], pos });
    }
    const first = this.term(false);
    if (this.isP(":")) return this.objectRest(first, pos);
    if (this.isP("|")) {
      const u = this.unionInCollection(first, "}");
      if (u === undefined) {
        this.next();
        const body = this.literals("}");
        this.expectP("}");
        return this.suffixes({ t: "setcompr", term: first, body, pos });
      }
      return this.collectionRest(u, pos);
    }
    return this.collectionRest(first, pos);
  }

  /** After `{key`: `: value, ...}` or `: value | body}`. */
  objectRest(first: Term, pos: Pos): Term {
    this.next();
    const v = this.term(false);
    if (this.isP("|")) {
      this.next();
      const body = this.literals("}");
      this.expectP("}");
      return this.suffixes({ t: "objcompr", key: first, value: v, body, pos });
    }
    const items: [Term, Term][] = [[first, this.continueOr(v)]];
    while (this.isP(",")) {
      this.next();
      if (this.isP("}")) break;
      const k = this.term();
      this.expectP(":");
      items.push([k, this.term()]);
    }
    this.expectP("}");
    return this.suffixes({ t: "object", items, pos });
  }

  /** `[x | y, ...]`: a `|` followed by a term and a comma is a union inside a collection, not a comprehension. */
  unionInCollection(first: Term, _end: string): Term | undefined {
    const save = this.i;
    try {
      this.next();
      const r = this.term(false);
      if (this.isP(",")) return { t: "binop", op: "|", l: first, r, pos: first.pos };
    } catch {
      // not a term: a comprehension body
    }
    this.i = save;
    return undefined;
  }

  collectionRest(first: Term, pos: Pos): Term {
    {
      const items = [this.continueOr(first)];
      while (this.isP(",")) {
        this.next();
        if (this.isP("}")) break;
        items.push(this.term());
      }
      this.expectP("}");
      return this.suffixes({ t: "set", items, pos });
    }
  }

  /** After a collection's first element parsed without `|`, a `|` that is not a comprehension can't occur. */
  continueOr(t: Term): Term {
    return t;
  }
}
