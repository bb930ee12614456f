import { afterEach, describe, expect, it, vi } from "vitest";

const writes: Array<{ fd: number; text: string }> = [];
let failWith: string | undefined;
let shortBy = 0;
let kind: "file" | "pipe" | "tty" = "file";

vi.mock("node:fs", async (original) => {
  const fs = await original<typeof import("node:fs")>();
  return {
    ...fs,
    fstatSync: () => ({
      isFile: () => kind === "file",
      isFIFO: () => kind === "pipe",
      isSocket: () => false,
      isCharacterDevice: () => kind === "tty",
    }),
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

/** A fresh copy of the module (it keeps what it learnt of each descriptor). */
async function load() {
  vi.resetModules();
  return (await import("../../src/cli/std-write.js")).std;
}

/** Captures what goes through process.stderr's stream. */
function streamedToStderr(): string[] {
  const streamed: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    streamed.push(Buffer.from(chunk).toString("utf8"));
    return true;
  });
  return streamed;
}
afterEach(() => {
  writes.length = 0;
  failWith = undefined;
  kind = "file";
  vi.restoreAllMocks();
});

describe("the CLI's writes to stdout and stderr", () => {
  it("go to a regular file with blocking writes, a short write continued until every byte is out", async () => {
    const std = await load();
    shortBy = 3;
    std.write(2, 'Package "é":\n');
    std.write(1, "out\n");
    expect(writes.filter((w) => w.fd === 2).map((w) => w.text)).toEqual(['Package "é', '":\n']);
    expect(writes.filter((w) => w.fd === 1).map((w) => w.text)).toEqual(["out\n"]);
  });

  it("go through the stream from a failed blocking write on (EAGAIN), in order", async () => {
    const std = await load();
    const streamed = streamedToStderr();
    failWith = "EAGAIN";
    std.write(2, "first\n");
    failWith = undefined;
    std.write(2, "second\n");
    expect(streamed).toEqual(["first\n", "second\n"]);
    expect(writes.filter((w) => w.fd === 2)).toEqual([]);
  });

  it("go into a pipe with blocking writes only as far as its buffer surely holds, then through the stream", async () => {
    kind = "pipe";
    const std = await load();
    const streamed = streamedToStderr();
    std.write(2, "a".repeat(4000));
    std.write(2, "b".repeat(200));
    std.write(2, "c");
    expect(writes.map((w) => w.text)).toEqual(["a".repeat(4000)]);
    expect(streamed).toEqual(["b".repeat(200), "c"]);
  });

  it("to stdout whose reader is gone (EPIPE) end the process with 141, nothing handed to the stream", async () => {
    const std = await load();
    const streamed = streamedToStderr();
    const exit = vi.spyOn(process, "exit").mockImplementation(() => undefined as never);
    failWith = "EPIPE";
    std.write(1, "out\n");
    expect(exit).toHaveBeenCalledWith(141);
    expect(streamed).toEqual([]);
  });

  it("to stderr stop after one failed (a full disk): the later ones are dropped, the process goes on", async () => {
    const std = await load();
    const streamed = streamedToStderr();
    const exit = vi.spyOn(process, "exit").mockImplementation(() => undefined as never);
    failWith = "ENOSPC";
    std.write(2, "first\n");
    failWith = undefined;
    std.write(2, "second\n");
    std.write(1, "out\n");
    expect(exit).not.toHaveBeenCalled();
    expect(streamed).toEqual([]);
    expect(writes).toEqual([{ fd: 1, text: "out\n" }]);
  });

  it("go to a terminal through the stream", async () => {
    kind = "tty";
    const std = await load();
    const streamed = streamedToStderr();
    std.write(2, "x\n");
    expect(writes).toEqual([]);
    expect(streamed).toEqual(["x\n"]);
  });
});
