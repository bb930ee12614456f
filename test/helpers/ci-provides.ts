/**
 * Suites whose input (`../shared`) or service (`redis-server`) `.ci/run` provides skip visibly where
 * it is missing — and FAIL under CI (`CI=true`), where a skip would hide that the suite did not run.
 */

/**
 * `present`, after saying why a suite skips; under CI a missing input throws instead (the test file
 * fails to load), naming `what` and `why`.
 */
export function providedByCi(what: string, present: boolean, why = "it is absent"): boolean {
  if (present) return true;
  const message = `${what}: ${why}`;
  if (process.env.CI)
    throw new Error(`${message} — .ci/run provides it, so under CI this fails instead of skipping`);
  console.warn(`skipped: ${message}`);
  return false;
}
