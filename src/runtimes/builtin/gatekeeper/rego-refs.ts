/**
 * The `data` references a Rego module makes, found by scanning its source outside strings and comments:
 * Gatekeeper lets template Rego read only `data.lib.*` (its libs) and `data.inventory` (the cached
 * objects) and rejects a template that reads anything else under `data`.
 */

/** Skips a string literal (`"..."` with escapes, or a backquoted raw string) starting at `i`; returns its end. */
function skipString(source: string, i: number): number {
  const quote = source[i];
  let j = i + 1;
  while (j < source.length && source[j] !== quote) {
    if (quote === '"' && source[j] === "\\") j++;
    j++;
  }
  return j + 1;
}

/** The end of a `[...]` group starting at `i` (strings inside skipped). */
function skipBrackets(source: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < source.length) {
    const ch = source[j];
    if (ch === '"' || ch === "`") {
      j = skipString(source, j);
      continue;
    }
    if (ch === "[") depth++;
    if (ch === "]" && --depth === 0) return j + 1;
    j++;
  }
  return j;
}

const IDENT_START = /[A-Za-z_]/;
const IDENT = /[A-Za-z0-9_]/;

/** The ref starting at `data` (position `i`): `data` then `.name` and `[...]` segments, without spaces. */
function readRef(source: string, i: number): { text: string; end: number } {
  let j = i + 4;
  let text = "data";
  for (;;) {
    if (source[j] === "." && IDENT_START.test(source[j + 1] ?? "")) {
      let k = j + 1;
      while (k < source.length && IDENT.test(source[k])) k++;
      text += source.slice(j, k);
      j = k;
    } else if (source[j] === "[") {
      const k = skipBrackets(source, j);
      text += source.slice(j, k).replace(/\s+/g, "");
      j = k;
    } else return { text, end: j };
  }
}

/** Every `data...` reference of a module, as written (imports included), in order. */
export function dataRefs(source: string): string[] {
  const refs: string[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (ch === "#") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (ch === '"' || ch === "`") {
      i = skipString(source, i);
    } else if (IDENT_START.test(ch)) {
      let k = i;
      while (k < source.length && IDENT.test(source[k])) k++;
      const word = source.slice(i, k);
      const previous = source.slice(0, i).trimEnd().slice(-1);
      if (word === "data" && previous !== ".") {
        const ref = readRef(source, i);
        refs.push(ref.text);
        i = ref.end;
      } else i = k;
    } else i++;
  }
  return refs;
}

/** Whether Gatekeeper lets a template read this `data` reference (`data.lib.*`, `data.inventory...`). */
export function allowedDataRef(ref: string): boolean {
  return /^data(\.lib|\["lib"\])[.[]/.test(ref) || /^data(\.inventory|\["inventory"\])($|[.[])/.test(ref);
}
