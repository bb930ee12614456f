// In-process render vs the parse+print floor: the time `renderPackage` takes on a package against
// the time our YAML layer (src/yaml) takes to read every resource file of it and write every document
// again, measured side by side (interleaved rounds, steady state: no forced collection).
import { performance } from "node:perf_hooks";
import { isResourceFile } from "./packages.js";
import { summary } from "./stats.js";

const decoder = new TextDecoder();

/** The floor: read every resource file once with our YAML layer and write it back. */
function floor(files, yaml) {
  let chars = 0;
  for (const [p, bytes] of files) {
    if (!isResourceFile(p)) continue;
    chars += yaml.printYamlStream(yaml.readYamlStream(decoder.decode(bytes))).length;
  }
  return chars;
}

/**
 * Wall time (ms) of `reps` calls of `fn`, divided by `reps`. No forced collection before a sample:
 * after `gc()` V8 runs a render far slower for many calls (~150 ms more on a render of any size: a
 * 100-resource render looked 10x slower than it runs), which no render in the CLI or the app pays;
 * floor and render alternate which goes first, so the collections V8 decides on fall on both.
 */
async function timed(fn, reps) {
  const start = performance.now();
  for (let i = 0; i < reps; i++) await fn();
  return (performance.now() - start) / reps;
}

/**
 * Measures each package: `{name, render, floor, ratio}` (summaries in ms; ratio = render / floor of
 * the same round). Small packages are repeated within a sample so a sample lasts at least ~20 ms.
 */
export async function measureInProcess({ packages, rounds, renderPackage, runtime, yaml }) {
  const cases = [];
  for (const p of packages) {
    const render = async () => {
      const result = await renderPackage({
        files: p.files,
        runtime,
        packageName: p.name,
        cwd: process.cwd(),
      });
      if (!result.ok) throw new Error(`bench: ${p.name} failed to render: ${result.error}`);
    };
    await timed(() => floor(p.files, yaml), 2);
    const warm = Math.max(await timed(render, 1), await timed(render, 1), 0.01);
    const reps = Math.max(1, Math.min(200, Math.ceil(20 / warm)));
    cases.push({
      name: p.name,
      files: p.files,
      resources: p.resources,
      render,
      reps,
      samples: { render: [], floor: [], ratio: [] },
    });
  }
  for (let round = 0; round < rounds; round++) {
    for (const c of cases) {
      // Alternate which goes first, so neither always runs on a warmer heap.
      const order = round % 2 === 0 ? ["floor", "render"] : ["render", "floor"];
      const t = {};
      for (const which of order) {
        t[which] =
          which === "floor" ? await timed(() => floor(c.files, yaml), c.reps) : await timed(c.render, c.reps);
      }
      c.samples.render.push(t.render);
      c.samples.floor.push(t.floor);
      c.samples.ratio.push(t.render / t.floor);
    }
  }
  return cases.map((c) => ({
    name: c.name,
    resources: c.resources,
    render: summary(c.samples.render),
    floor: summary(c.samples.floor),
    ratio: summary(c.samples.ratio),
  }));
}
