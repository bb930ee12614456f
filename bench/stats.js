// Summaries of repeated measurements: median with min and max.

/** `{median, min, max, runs}` of a list of numbers (the lower median for an even count). */
export function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor((sorted.length - 1) / 2)],
    min: sorted[0],
    max: sorted[sorted.length - 1],
    runs: sorted.length,
  };
}

/** `12.3 [11.9–13.0]` for a summary, with `digits` decimals. */
export function spread(s, digits = 1) {
  if (!s) return "—";
  if (s.runs === 1 || s.min === s.max) return s.median.toFixed(digits);
  return `${s.median.toFixed(digits)} [${s.min.toFixed(digits)}–${s.max.toFixed(digits)}]`;
}

/** Runs `fn(round)` for `rounds` rounds; each round calls every scenario once (interleaved). */
export async function interleave(rounds, scenarios) {
  const samples = new Map(scenarios.map((s) => [s.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const s of scenarios) samples.get(s.name).push(await s.run(round));
  }
  return samples;
}
