/**
 * Splits a Kptfile `exec:` string into argv the way kpt does (shell-style words and quotes, no
 * expansion or operators), with the shlex port of Python's/Go's shlex.
 */
import { split } from "shlex";

/**
 * The command's words: `sed -e 's/foo/bar/'` -> `["sed", "-e", "s/foo/bar/"]`.
 * @throws Error in kpt's words (`exec command "<cmd>" must be valid: ...`) when a quote is left open.
 */
export function splitCommand(command: string): string[] {
  try {
    return split(command);
  } catch (err) {
    throw new Error(`exec command ${JSON.stringify(command)} must be valid: ${(err as Error).message}`);
  }
}
