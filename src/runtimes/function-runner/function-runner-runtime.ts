/**
 * The function-runner runtime: runs `image:` functions through Porch's function runner
 * (`evaluator.FunctionEvaluator/EvaluateFunction` over gRPC; Porch's `grpcRuntime`), which runs each
 * image as a pod. Only images the operator's allow-list names go there; any other is "not mine" and
 * falls through to the next runtime. Every call has a deadline: a runner that is down, slow or answers
 * garbage fails the step with a message naming the runner, never hangs a render.
 */
import type * as Grpc from "@grpc/grpc-js";
import type { NodeResourceList, ResourceList } from "../../krm/resource-list.js";
import { runnableImage } from "../container/container-runtime.js";
import { documentWire, nodeWire, type Wire } from "../exec/wire-nodes.js";
import type { FunctionRunOutcome, FunctionRunRequest, FunctionRuntime } from "../runtime.js";
import {
  decodeResponse,
  EVALUATE_FUNCTION,
  type EvaluateFunctionRequest,
  type EvaluateFunctionResponse,
  encodeRequest,
} from "./evaluator-messages.js";
import { imageMatcher } from "./image-patterns.js";

/** TLS towards the runner; PEM texts (absent `ca`: the system's roots). */
export interface FunctionRunnerTls {
  ca?: string;
  /** Client certificate and key, for a runner that asks for one (mutual TLS). */
  cert?: string;
  key?: string;
}

/** Where the function runner is and what it may run (the operator's settings, never a repository's). */
export interface FunctionRunnerSettings {
  /** `host:port` of the runner's gRPC endpoint (Porch's `--function-runner` address). */
  address: string;
  /** Patterns of the images sent to it (see `image-patterns.ts`); empty: none is. */
  images: readonly string[];
  /** TLS, when the runner serves it; absent: plaintext, as Porch dials its runner. */
  tls?: FunctionRunnerTls;
  /** Time limit of one call in milliseconds, connecting included (default 60 000). */
  timeoutMs?: number;
  /** Largest message either way, bytes (default 64 MiB, the exec runtime's output cap). */
  maxMessageBytes?: number;
}

/** A runtime with a connection to close when it is no longer needed. */
export interface ClosableRuntime extends FunctionRuntime {
  close(): void;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

function credentials(grpc: typeof Grpc, tls: FunctionRunnerTls | undefined): Grpc.ChannelCredentials {
  if (!tls) return grpc.credentials.createInsecure();
  const pem = (text: string | undefined) => (text ? Buffer.from(text) : null);
  return grpc.credentials.createSsl(pem(tls.ca), pem(tls.key), pem(tls.cert));
}

/**
 * gRPC's details without what would make a stored status differ from one render to the next: grpc-js
 * stamps connection errors with the time, and ends them with an often empty resolution note.
 */
function stableDetails(details: string): string {
  return details
    .replace(/\s*\(\d{4}-\d\d-\d\dT[\d:.]+Z\)/g, "")
    .replace(/\.?\s*Resolution note:\s*$/, "")
    .trim();
}

/** The words of a failed call: what the operator needs to know about the runner. */
function callFailure(settings: FunctionRunnerSettings, image: string, error: Grpc.ServiceError): string {
  const where = `function runner ${settings.address}`;
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  switch (error.code) {
    case 4: // DEADLINE_EXCEEDED
      return `${where} did not answer for ${JSON.stringify(image)} within ${timeoutMs} ms`;
    case 14: // UNAVAILABLE
      return `${where} is unavailable: ${stableDetails(error.details)}`;
    case 5: // NOT_FOUND
      return `${where} has no function ${JSON.stringify(image)}: ${stableDetails(error.details)}`;
    default:
      return `${where} failed to evaluate ${JSON.stringify(image)}: ${stableDetails(error.details || error.message)}`;
  }
}

/** Whether a failure is the function's own (Porch's runner answers INTERNAL with the function's stderr). */
function isFunctionFailure(error: Grpc.ServiceError): boolean {
  return error.code === 13 && /^failed to evaluate function|^Failed to execute function/.test(error.details);
}

/**
 * The runner's `EvaluateFunction` call over one lazily opened gRPC channel (`@grpc/grpc-js` is loaded
 * on first use), with gRPC's deadline `timeoutMs` and a guard against a call that never settles.
 */
function connectLazily(settings: FunctionRunnerSettings): {
  call(request: EvaluateFunctionRequest): Promise<EvaluateFunctionResponse>;
  close(): void;
} {
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = settings.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  let client: Promise<Grpc.Client> | undefined;
  const connect = async () => {
    const grpc = await import("@grpc/grpc-js"); // loaded only when a runner is configured and used
    return new grpc.Client(settings.address, credentials(grpc, settings.tls), {
      "grpc.max_receive_message_length": maxBytes,
      "grpc.max_send_message_length": maxBytes,
    });
  };
  const call = async (request: EvaluateFunctionRequest) => {
    client ??= connect();
    const channel = await client;
    return new Promise<EvaluateFunctionResponse>((resolve, reject) => {
      const pending = channel.makeUnaryRequest(
        EVALUATE_FUNCTION,
        encodeRequest,
        decodeResponse,
        request,
        { deadline: Date.now() + timeoutMs },
        (error, response) => {
          clearTimeout(guard);
          if (error || !response) reject(error);
          else resolve(response);
        },
      );
      // The deadline is gRPC's; this only guards against a call that never settles.
      const guard = setTimeout(() => pending.cancel(), timeoutMs + 1_000);
    });
  };
  const close = () => {
    void client?.then((c) => c.close());
    client = undefined;
  };
  return { call, close };
}

/**
 * Creates the runtime. `run` resolves `undefined` for `exec:` steps and for images the allow-list does
 * not match; otherwise it never throws: a failed call gives a non-zero `exitCode`, with the function's
 * own failure in `stderr` and a transport failure (unreachable, deadline, undecodable answer) in
 * `executionError`. `runNodes` is `run` on node items. The connection opens on first use; `close()`
 * ends it.
 */
export function createFunctionRunnerRuntime(settings: FunctionRunnerSettings): ClosableRuntime {
  const allowed = imageMatcher(settings.images);
  const runner = connectLazily(settings);
  const execute = async <L extends ResourceList | NodeResourceList>(
    request: Omit<FunctionRunRequest, "input">,
    encode: () => Wire<L>,
  ): Promise<(Omit<FunctionRunOutcome, "output"> & { output?: L }) | undefined> => {
    const { image: written, tag, exec } = request.fn;
    if (!written || exec !== undefined) return undefined;
    let image: string;
    try {
      image = runnableImage(written, tag);
    } catch (err) {
      if (!allowed(runnableImage(written, undefined))) return undefined;
      return { exitCode: 1, stderr: "", executionError: (err as Error).message };
    }
    if (!allowed(image)) return undefined;
    const wire = encode();
    const resourceList = Buffer.from(wire.text, "utf8");
    let response: EvaluateFunctionResponse;
    try {
      response = await runner.call({ resourceList, image });
    } catch (err) {
      const error = err as Grpc.ServiceError;
      if (isFunctionFailure(error)) return { exitCode: 1, stderr: error.details };
      return { exitCode: 1, stderr: "", executionError: callFailure(settings, image, error) };
    }
    const stderr = Buffer.from(response.log).toString("utf8");
    try {
      const output = wire.decode(Buffer.from(response.resourceList).toString("utf8"));
      // The runner answers OK only when the function exited 0 (a failure is an INTERNAL status).
      return { exitCode: 0, stderr, output };
    } catch (err) {
      const why = `function runner ${settings.address} answered for ${JSON.stringify(image)} with no valid ResourceList: ${(err as Error).message}`;
      return { exitCode: 1, stderr, executionError: why };
    }
  };
  return {
    name: "function-runner",
    keepsInput: () => true, // the input goes to the runner as text
    close: runner.close,
    run: (request) => execute(request, () => documentWire(request.input)),
    runNodes: (request) => execute(request, () => nodeWire(request.input)),
  };
}
