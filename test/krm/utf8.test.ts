import { describe, expect, it } from "vitest";
import { utf8Problem } from "../../src/krm/utf8.js";

const bytes = (...values: number[]) => new Uint8Array(values);

describe("utf8Problem (yaml.v3's reader wording)", () => {
  it("accepts valid UTF-8, multi-byte characters included", () => {
    expect(utf8Problem(new TextEncoder().encode("name: café — 日本 🚀\n"))).toBeUndefined();
  });

  it("names each kind of invalid sequence", () => {
    expect(utf8Problem(bytes(0x61, 0xe9))).toBe("incomplete UTF-8 octet sequence");
    expect(utf8Problem(bytes(0xe9, 0x0a, 0x61, 0x62))).toBe("invalid trailing UTF-8 octet");
    expect(utf8Problem(bytes(0x80))).toBe("invalid leading UTF-8 octet");
    expect(utf8Problem(bytes(0xc0, 0x80))).toBe("invalid length of a UTF-8 sequence");
    expect(utf8Problem(bytes(0xed, 0xa0, 0x80))).toBe("invalid Unicode character");
  });
});
