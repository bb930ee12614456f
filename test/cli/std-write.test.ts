import { afterEach, describe, expect, it, vi } from "vitest";

const writes: Array<{ fd: number; text: string }> = [];
let failWith: string | undefined;
let shortBy = 0;

vi.mock("node:fs", async (original) => {
  const fs = await original<typeof import("node:fs")>();
  return {
    ...fs,
    writeSync: (fd: number, bytes: Uint8Array, offset: number, length: number) => {
      if (failWith) throw Object.assign(new Error(failWith), { code: failWith });
      // A short write first (a pipe taking part of a large write), then the rest.
      const take = shortBy > 0 && length > shortBy ? length - shortBy : length;
      shortBy = 0;
      writes.push({ fd, text: Buffer.from(bytes.subarray(offset, offset + take)).toString("utf8") });
      return take;
    },
  };
});

const { std } = await import("../../src/cli/std-write.js");

afterEach(() => {
  writes.length = 0;
  failWith = undefined;
  vi.restoreAllMocks();
});

describe("the CLI's writes to stdout and stderr", () => {
  it("go to the descriptor itself, a short write continued until every byte is out", () => {
    shortBy = 3;
    std.write(2, 'Package "é":\n');
    std.write(1, "out\n");
    expect(writes.filter((w) => w.fd === 2).map((w) => w.text)).toEqual(['Package "é', '":\n']);
    expect(writes.filter((w) => w.fd === 1).map((w) => w.text)).toEqual(["out\n"]);
  });

  it("go through the stream from a failed blocking write on (EAGAIN), in order", () => {
    const streamed: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      streamed.push(Buffer.from(chunk).toString("utf8"));
      return true;
    });
    failWith = "EAGAIN";
    std.write(2, "first\n");
    failWith = undefined;
    std.write(2, "second\n");
    expect(streamed).toEqual(["first\n", "second\n"]);
    expect(writes.filter((w) => w.fd === 2)).toEqual([]);
  });
});
