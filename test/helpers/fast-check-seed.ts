/**
 * Property tests' seed: pinned under CI (`CI=true`, so a run there is reproducible), random locally;
 * `FC_SEED=<n>` replays a seed anywhere. fast-check prints the seed and path of a failing run.
 */
import fc from "fast-check";

/** The seed CI runs the property tests with. */
export const CI_SEED = 20261201;

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : process.env.CI ? CI_SEED : undefined;
if (seed !== undefined) fc.configureGlobal({ seed });
