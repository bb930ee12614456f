/**
 * Splits a Kptfile `exec:` string into argv the way a POSIX shell would for words and quotes (kpt
 * splits it shell-style too): whitespace separates words, `'…'` is literal, `"…"` allows `\"`, `\\`,
 * `\$` and `` \` `` escapes, and a backslash outside quotes escapes the next character. No variable
 * expansion, globbing or operators.
 *
 * @throws Error naming the command when a quote is left open.
 */
export function splitCommand(command: string): string[] {
  const args: string[] = [];
  let current = "";
  let inWord = false;
  let i = 0;
  while (i < command.length) {
    const ch = command[i];
    if (ch === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated single quote in exec command: ${command}`);
      current += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      i += 1;
      let closed = false;
      while (i < command.length) {
        const c = command[i];
        if (c === '"') {
          closed = true;
          i += 1;
          break;
        }
        if (c === "\\" && i + 1 < command.length && '"\\$`'.includes(command[i + 1])) {
          current += command[i + 1];
          i += 2;
          continue;
        }
        current += c;
        i += 1;
      }
      if (!closed) throw new Error(`unterminated double quote in exec command: ${command}`);
      inWord = true;
    } else if (ch === "\\") {
      if (i + 1 < command.length) current += command[i + 1];
      inWord = true;
      i += 2;
    } else if (/\s/.test(ch)) {
      if (inWord) args.push(current);
      current = "";
      inWord = false;
      i += 1;
    } else {
      current += ch;
      inWord = true;
      i += 1;
    }
  }
  if (inWord) args.push(current);
  return args;
}
