/**
 * The container runtime: runs an `image:` function with docker or podman (kpt's default runtime), only
 * when one of them is installed and its daemon answers; otherwise every function is "not mine".
 */
import { classifyTag, statusImage } from "../../engine/image.js";
import type { NodeResourceList, ResourceList } from "../../krm/resource-list.js";
import { documentWire, nodeWire, type Wire } from "../exec/wire-nodes.js";
import type { FunctionRunOutcome, FunctionRunRequest, FunctionRuntime } from "../runtime.js";

/** Options of the container runtime. */
export interface ContainerRuntimeOptions {
  /** Engines to probe, in order (default `docker`, then `podman`). */
  engines?: string[];
  /** Wall-clock limit per function run in milliseconds (default 300 000). */
  timeoutMs?: number;
  /** Cap on stdout and on stderr, each in bytes (default 64 MiB). */
  maxOutputBytes?: number;
}

/** kpt's fully qualified form of a short catalog image (`set-labels:v1` -> `ghcr.io/kptdev/krm-functions-catalog/set-labels:v1`). */
export function qualifyImage(image: string): string {
  const withRegistry = image.includes("/") ? image : `ghcr.io/kptdev/krm-functions-catalog/${image}`;
  const name = withRegistry.slice(withRegistry.lastIndexOf("/") + 1);
  return name.includes(":") || name.includes("@") ? withRegistry : `${withRegistry}:latest`;
}

/**
 * The image to run for a step: the step's `tag` replaces the image's when it is a version or a tag.
 * @throws Error for a semver constraint: kpt lists the registry's tags to resolve one, which needs the
 *   network.
 */
export function runnableImage(image: string, tag: string | undefined): string {
  if (!tag) return qualifyImage(image);
  if (classifyTag(tag) === "constraint") {
    throw new Error(
      `no tag could be found matching the version constraint ${JSON.stringify(tag)}: resolving a constraint needs the registry's tag list, which porchlight does not fetch`,
    );
  }
  return statusImage(image, { tag });
}

async function probe(engines: string[]): Promise<string | undefined> {
  for (const engine of engines) {
    const { execa } = await import("execa"); // loaded only when an image needs a container
    const result = await execa(engine, ["version", "--format", "{{.Server.Version}}"], {
      reject: false,
      timeout: 5_000,
    });
    if (!result.failed && result.exitCode === 0) return engine;
  }
  return undefined;
}

/**
 * Creates the container runtime; the engine is probed once, on first use. Never throws. `runNodes`
 * is `run` on node items.
 */
export function createContainerRuntime(options: ContainerRuntimeOptions = {}): FunctionRuntime {
  let engine: Promise<string | undefined> | undefined;
  const timeout = options.timeoutMs ?? 300_000;
  const maxBuffer = options.maxOutputBytes ?? 64 * 1024 * 1024;
  const execute = async <L extends ResourceList | NodeResourceList>(
    request: Omit<FunctionRunRequest, "input">,
    encode: () => Wire<L>,
  ): Promise<(Omit<FunctionRunOutcome, "output"> & { output?: L }) | undefined> => {
    if (!request.fn.image || request.fn.exec !== undefined) return undefined;
    engine ??= probe(options.engines ?? ["docker", "podman"]);
    const bin = await engine;
    if (!bin) return undefined;
    let image: string;
    try {
      image = runnableImage(request.fn.image, request.fn.tag);
    } catch (err) {
      return { exitCode: 1, stderr: "", executionError: (err as Error).message };
    }
    const { execa } = await import("execa");
    const wire = encode();
    const result = await execa(
      bin,
      ["run", "--rm", "-i", "--network", "none", "--security-opt=no-new-privileges", image],
      {
        input: wire.text,
        reject: false,
        timeout,
        maxBuffer,
        stripFinalNewline: false,
      },
    );
    const stderr = typeof result.stderr === "string" ? result.stderr : "";
    if (result.timedOut || result.isMaxBuffer || result.exitCode === undefined) {
      return { exitCode: 1, stderr, executionError: result.shortMessage };
    }
    try {
      const output = wire.decode(String(result.stdout));
      return { exitCode: result.exitCode, stderr, output };
    } catch {
      return { exitCode: result.exitCode === 0 ? 1 : result.exitCode, stderr };
    }
  };
  return {
    name: "container",
    keepsInput: () => true, // the input goes to the container as text
    run: (request) => execute(request, () => documentWire(request.input)),
    runNodes: (request) => execute(request, () => nodeWire(request.input)),
  };
}
