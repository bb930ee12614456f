/**
 * The local GitHub of `../shared/tools/fake-github` for end-to-end tests: `scenario.mjs` loaded by its
 * REAL path (its server only starts when `argv[1]` is its own path, and `../shared` may be a symlink).
 * `available` is false — and tests skip with a visible message — when the fake is absent; under CI
 * (which provides `../shared`) its absence fails instead.
 */
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { sharedDir } from "./built-cli.js";
import { providedByCi } from "./ci-provides.js";

const scenarioPath = path.join(sharedDir, "tools/fake-github/scenario.mjs");

/** True when the fake GitHub is beside the checkout. */
export const fakeGitHubAvailable = providedByCi(
  "the end-to-end tests (fake GitHub)",
  existsSync(scenarioPath),
  `${scenarioPath} is absent`,
);

// biome-ignore lint/suspicious/noExplicitAny: the fake is plain JavaScript imported at test time.
export type Any = any;

/** Imports `scenario.mjs` (startFakeGitHub, waitFor, ...). */
export async function loadScenario(): Promise<Any> {
  return import(pathToFileURL(realpathSync(scenarioPath)).href);
}
