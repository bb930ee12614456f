import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  decodeKptfileData,
  type FieldShape,
  fitsShape,
  KPTFILE_SHAPE,
  kptfileSchemas,
} from "../../src/kptfile/check.js";
import { KptfileError, readKptfile } from "../../src/kptfile/read.js";
import { defineKptfileSchemas } from "../../src/kptfile/schema.js";

type ZodLike = { _zod: { def: Record<string, unknown> & { type: string } } };

/** The hand check's shape a zod schema stands for (optional fields unwrapped, `required` listed). */
function shapeOf(schema: ZodLike): FieldShape {
  const def = schema._zod.def;
  switch (def.type) {
    case "string":
      return "string";
    case "unknown":
      return "unknown";
    case "record": {
      const value = (def.valueType as ZodLike)._zod.def.type;
      expect((def.keyType as ZodLike)._zod.def.type).toBe("string");
      if (value === "string") return "stringMap";
      if (value === "unknown") return "object";
      throw new Error(`unexpected record of ${value}`);
    }
    case "array":
      return { items: shapeOf(def.element as ZodLike) };
    case "object": {
      expect((def.catchall as ZodLike | undefined)?._zod.def.type).toBe("never");
      const fields: Record<string, FieldShape> = {};
      const required: string[] = [];
      for (const [key, field] of Object.entries(def.shape as Record<string, ZodLike>)) {
        const optional = field._zod.def.type === "optional";
        fields[key] = shapeOf(optional ? (field._zod.def.innerType as ZodLike) : field);
        if (!optional) required.push(key);
      }
      return required.length > 0 ? { required, fields } : { fields };
    }
    default:
      throw new Error(`unexpected zod type ${def.type}`);
  }
}

const scalar = fc.oneof(fc.constantFrom("a", "kpt.dev/v1", "Kptfile", ""), fc.string({ maxLength: 4 }));

/** Plain data shaped like `toPlain` output: strings, arrays (possibly with holes as undefined) and objects. */
function nearShape(shape: FieldShape, depth: number): fc.Arbitrary<unknown> {
  const wrong = fc.oneof(scalar, fc.constant(undefined), fc.constant([]), fc.constant({ x: "1" }));
  if (depth > 4) return wrong;
  let right: fc.Arbitrary<unknown>;
  if (shape === "string" || shape === "unknown") right = scalar;
  else if (shape === "stringMap" || shape === "object")
    right = fc.dictionary(fc.constantFrom("a", "b", "c"), fc.oneof(scalar, scalar, fc.constant(["x"])));
  else if ("items" in shape) right = fc.array(nearShape(shape.items, depth + 1), { maxLength: 3 });
  else {
    const keys = Object.keys(shape.fields);
    right = fc
      .record(
        Object.fromEntries(keys.map((k) => [k, nearShape(shape.fields[k], depth + 1)])) as Record<
          string,
          fc.Arbitrary<unknown>
        >,
        { requiredKeys: [] },
      )
      .chain((obj) =>
        fc
          .option(fc.constantFrom("unknownField", "status", "apiVersion"), { nil: undefined })
          .map((extra) => (extra === undefined ? obj : { [extra]: "x", ...obj })),
      );
  }
  return fc.oneof({ weight: 6, arbitrary: right }, { weight: 1, arbitrary: wrong });
}

describe("Kptfile hand check", () => {
  it("mirrors the zod schema field by field", () => {
    expect(KPTFILE_SHAPE).toEqual(shapeOf(defineKptfileSchemas(z).kptfileSchema as unknown as ZodLike));
  });

  it("accepts only what zod accepts, with the same data", () => {
    const { kptfileSchema } = kptfileSchemas();
    fc.assert(
      fc.property(nearShape(KPTFILE_SHAPE, 0), (data) => {
        const zod = kptfileSchema.safeParse(data);
        if (fitsShape(data, KPTFILE_SHAPE)) {
          expect(zod.success).toBe(true);
          expect(JSON.stringify(data)).toBe(JSON.stringify(zod.data));
        }
        expect(decodeKptfileData(data).success).toBe(zod.success);
      }),
      { numRuns: 3000 },
    );
  });

  it("still words an invalid Kptfile with zod's issues (kpt's messages)", () => {
    let error: unknown;
    try {
      readKptfile(
        "Kptfile",
        "apiVersion: kpt.dev/v1\nkind: Kptfile\npipeline:\n  mutators: a\n  colour: red\n",
      );
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(KptfileError);
    expect((error as KptfileError).detail).toBe(
      "yaml: unmarshal errors:\n  line 4: cannot unmarshal !!str into []v1.Function\n  line 5: field colour not found in type v1.Pipeline",
    );
  });
});
