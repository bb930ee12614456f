/**
 * Spelling suggestions for "did you mean" hints (go.starlark.net/internal/spell): the candidate
 * nearest in Levenshtein distance, ignoring case and underscores, within 50% typos.
 */

function fold(s: string): string {
  return s.replace(/_/g, "").toLowerCase();
}

function levenshtein(x: string, y: string, max: number): number {
  if (x.length > y.length) [x, y] = [y, x];
  // Remove the common prefix (as go.starlark.net does: only when the strings differ within x).
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i]) {
      x = x.slice(i);
      y = y.slice(i);
      break;
    }
  }
  if (x === "") return y.length;
  const d = Math.abs(x.length - y.length);
  if (d > max) return d;
  const row: number[] = [];
  for (let i = 0; i <= y.length; i++) row.push(i);
  for (let i = 1; i <= x.length; i++) {
    row[0] = i;
    let best = i;
    let prev = i - 1;
    for (let j = 1; j <= y.length; j++) {
      const a = prev + (x[i - 1] !== y[j - 1] ? 1 : 0);
      const b = 1 + row[j - 1]!;
      const c = 1 + row[j]!;
      const k = Math.min(a, b, c);
      prev = row[j]!;
      row[j] = k;
      best = Math.min(best, k);
    }
    if (best > max) return best;
  }
  return row[y.length]!;
}

/** The element of `candidates` nearest to `x`, or "" if none is promising. */
export function nearest(x: string, candidates: readonly string[]): string {
  x = fold(x);
  let best = "";
  let bestD = Math.floor((x.length + 1) / 2);
  for (const c of candidates) {
    const d = levenshtein(x, fold(c), bestD);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}
