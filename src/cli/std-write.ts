/**
 * Writing to the process's standard output and error without `process.stdout` / `process.stderr`
 * where that is safe. Creating those streams loads Node's streams stack and `net` (a pipe is a
 * socket): about 10 ms of CPU at the start of every command, more than a small package's whole
 * render. A blocking write on the descriptor writes the same bytes in the same order (on Linux the
 * streams write pipes, files and terminals synchronously too), but it must never wait: a process
 * blocked in the kernel runs no signal handler, so a reader that stops reading would make it deaf to
 * SIGTERM and Ctrl-C. So blocking writes go to a regular file, and to a pipe or socket only as much
 * as its buffer surely holds; everything else goes through the stream, which queues what the reader
 * does not take yet.
 */
import { fstatSync, writeSync } from "node:fs";

/**
 * Linux's smallest pipe buffer (one page): blocking writes into a pipe, all descriptors together,
 * stay below it, so none of them waits for a reader.
 */
const PIPE_BYTES = 4096;

/** Bytes written so far with blocking writes into pipes and sockets (all descriptors). */
let piped = 0;

/** What descriptor 1 and 2 are, read once: a regular file, a pipe or socket, or other. */
const kinds: Record<1 | 2, "file" | "pipe" | "other" | undefined> = { 1: undefined, 2: undefined };

function kindOf(fd: 1 | 2): "file" | "pipe" | "other" {
  let kind = kinds[fd];
  if (kind === undefined) {
    try {
      const st = fstatSync(fd);
      kind = st.isFile() ? "file" : st.isFIFO() || st.isSocket() ? "pipe" : "other";
    } catch {
      kind = "other";
    }
    kinds[fd] = kind;
  }
  return kind;
}

/**
 * Writes `text` (UTF-8) to descriptor 1 (stdout) or 2 (stderr): with a blocking write where it cannot
 * wait (see above), else — and from then on, so the order holds — through the stream. A blocking
 * write that would wait (EAGAIN: a full non-blocking pipe) hands the rest to the stream too, which
 * queues it; any other failure, here or in the stream, is the `failed` below.
 */
function writeStd(fd: 1 | 2, text: string): void {
  if (text === "" || (fd === 2 && stderrFailed)) return;
  const stream = () => streamOf(fd);
  const bytes = viaStream[fd] ? undefined : Buffer.from(text, "utf8");
  const kind = bytes ? kindOf(fd) : "other";
  if (!bytes || kind === "other" || (kind === "pipe" && piped + bytes.length > PIPE_BYTES)) {
    viaStream[fd] = true;
    stream().write(text);
    return;
  }
  if (kind === "pipe") piped += bytes.length;
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
  } catch (error) {
    if (!retriable(error)) {
      failed(fd, error);
      return;
    }
    // Whatever the stream holds must go out before any later write: it takes every later one too.
    viaStream[fd] = true;
    stream().write(bytes.subarray(done));
  }
}

/** The descriptors whose writes go through the stream (since the first that could not be blocking). */
const viaStream: Record<1 | 2, boolean> = { 1: false, 2: false };

/**
 * `process.stderr` when descriptor 2 may be a terminal (a character device), else undefined: a pipe
 * or a file is never one, and is then not turned into a stream only to be asked.
 */
function stderrIfTerminal(): NodeJS.WriteStream | undefined {
  try {
    if (!fstatSync(2).isCharacterDevice()) return undefined;
  } catch {
    return undefined;
  }
  const stream = streamOf(2);
  return stream.isTTY ? stream : undefined;
}

/** Whether a failed blocking write may go on through the stream (it waits where the descriptor would block). */
const retriable = (error: unknown) => (error as { code?: string }).code === "EAGAIN";

/** Set once a write to stderr failed: later ones are dropped. */
let stderrFailed = false;

/** The streams whose `error` is heard (by `failed`). */
const heard = new Set<1 | 2>();

/** `process.stdout` or `process.stderr`, failures heard by `failed` instead of thrown as an unhandled `error`. */
function streamOf(fd: 1 | 2): NodeJS.WriteStream {
  const stream = fd === 1 ? process.stdout : process.stderr;
  if (!heard.has(fd)) {
    heard.add(fd);
    stream.on("error", (error) => failed(fd, error));
  }
  return stream;
}

/**
 * A write that failed. Stderr: the command goes on without it (its exit code stays the command's).
 * Stdout whose reader is gone (EPIPE, `| head -1`): exit at once and quietly with 141, the status of
 * a process killed by SIGPIPE, as kpt is (Node ignores SIGPIPE, so the exit code stands in for it).
 * Any other stdout failure (a full disk): the error on stderr, exit 1.
 */
function failed(fd: 1 | 2, error: unknown): void {
  if (fd === 2) {
    stderrFailed = true;
    return;
  }
  const { code, message } = error as { code?: string; message?: string };
  if (code === "EPIPE") process.exit(141);
  const reason = (message ?? String(error)).replace(/^[A-Z]+: /, "").replace(/, write$/, "");
  writeStd(2, `Error: cannot write to stdout: ${reason}\n`);
  process.exit(1);
}

/** Makes the failures of commands that write to `process.stdout` / `process.stderr` themselves `failed`'s. */
function hearFailures(): void {
  streamOf(1);
  streamOf(2);
}

/**
 * The CLI's standard output and error: `write(fd, text)`, `terminal()` (`process.stderr` when it
 * is a terminal) and `hearFailures()`. One object, so a test can spy on it as on `process.stderr.write`.
 */
export const std = { write: writeStd, terminal: stderrIfTerminal, hearFailures };
