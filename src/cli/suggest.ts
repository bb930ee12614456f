/**
 * "Did you mean" for revision NAMEs (`pkgs.app.v1`): the known names close to a mistyped one, as
 * kubectl-style CLIs suggest commands (cobra's `SuggestionsMinimumDistance`, Levenshtein distance).
 */

/** Levenshtein distance of `a` and `b` (insertions, deletions, substitutions, each 1). */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

/**
 * The `candidates` close to `name`, nearest first, at most `limit` (default 3): a candidate that
 * starts with `name.`, or within a quarter of its length in edits (at least 1, at most 3: a typo or
 * two). Empty when none is.
 */
export function closeNames(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const max = Math.min(3, Math.max(1, Math.floor(name.length / 4)));
  const scored: [string, number][] = [];
  for (const c of new Set(candidates)) {
    if (c === name) continue;
    const d = c.startsWith(`${name}.`) ? 0 : editDistance(name.toLowerCase(), c.toLowerCase());
    if (d <= max) scored.push([c, d]);
  }
  return scored
    .sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
    .slice(0, limit)
    .map(([c]) => c);
}
