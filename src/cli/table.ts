/**
 * kubectl's table printer, as porchctl prints: one line per row, columns left-aligned and separated by
 * at least three spaces, no trailing spaces, a final newline. `rows[0]` is the header; every row has
 * the header's number of cells.
 */
export function columns(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd((widths[i] ?? 0) + 3)))
        .join("")
        .trimEnd(),
    )
    .join("\n")
    .concat("\n");
}
