/**
 * Writing to the process's standard output and error without `process.stdout` / `process.stderr`.
 * Creating those streams loads Node's streams stack and `net` (a pipe is a socket): about 10 ms of
 * CPU at the start of every command, more than a small package's whole render. A blocking write on
 * the descriptor writes the same bytes in the same order (on Linux the streams write pipes, files and
 * terminals synchronously too).
 */
import { fstatSync, writeSync } from "node:fs";

/**
 * Writes `text` (UTF-8) to descriptor 1 (stdout) or 2 (stderr). When the descriptor cannot take a
 * blocking write (a non-blocking pipe that is full, or an error such as a closed pipe) the rest goes
 * through the stream, which then does what it always did (buffers, or reports the error). Never throws
 * for a failed write the stream would not have thrown for.
 */
function writeStd(fd: 1 | 2, text: string): void {
  if (text === "") return;
  const stream = () => (fd === 1 ? process.stdout : process.stderr);
  if (viaStream[fd]) {
    stream().write(text);
    return;
  }
  const bytes = Buffer.from(text, "utf8");
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
  } catch {
    // Whatever the stream holds must go out before any later write: it takes every later one too.
    viaStream[fd] = true;
    stream().write(bytes.subarray(done));
  }
}

/** The descriptors whose writes go through the stream since a blocking write failed. */
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
  return process.stderr.isTTY ? process.stderr : undefined;
}

/**
 * The CLI's standard output and error: `write(fd, text)` and `terminal()` (`process.stderr` when it
 * is a terminal). One object, so a test can spy on it as on `process.stderr.write`.
 */
export const std = { write: writeStd, terminal: stderrIfTerminal };
