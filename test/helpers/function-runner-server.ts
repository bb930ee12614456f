/**
 * A function runner for tests: a real gRPC server on loopback speaking Porch's
 * `evaluator.FunctionEvaluator/EvaluateFunction`, which runs an exec function for each image it is
 * given (as Porch's wrapper server runs a pod's entrypoint): the ResourceList on stdin, the one on
 * stdout back, stderr as `log`; a function that exits non-zero is an INTERNAL status with its stderr;
 * an image it does not know is NOT_FOUND. Misbehaviours on request: `slow` never answers, `garbage`
 * answers bytes that are no EvaluateFunctionResponse.
 */
import { spawn } from "node:child_process";
import * as grpc from "@grpc/grpc-js";
import {
  decodeRequest,
  decodeResponse,
  EVALUATE_FUNCTION,
  type EvaluateFunctionRequest,
  type EvaluateFunctionResponse,
  encodeRequest,
  encodeResponse,
} from "../../src/runtimes/function-runner/evaluator-messages.js";

/** Options of {@link startFunctionRunner}. */
export interface TestRunnerOptions {
  /** image -> argv of the function process (e.g. `[process.execPath, "fixture.mjs"]`). */
  images: Record<string, string[]>;
  mode?: "normal" | "slow" | "garbage";
  /** TLS key and certificate (PEM) to serve with; plaintext without. */
  tls?: { key: string; cert: string };
}

/** A started runner: its address, what it was asked, and how to stop it. */
export interface TestRunner {
  address: string;
  requests: EvaluateFunctionRequest[];
  stop(): Promise<void>;
}

function runFunction(argv: string[], input: Uint8Array): Promise<{ code: number; out: Buffer; err: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({ code: code ?? 1, out: Buffer.concat(out), err: Buffer.concat(err) }),
    );
    child.stdin.end(input);
  });
}

/** Starts the runner on 127.0.0.1 (a free port). */
export async function startFunctionRunner(options: TestRunnerOptions): Promise<TestRunner> {
  const requests: EvaluateFunctionRequest[] = [];
  const mode = options.mode ?? "normal";
  const server = new grpc.Server();
  const definition: grpc.ServiceDefinition = {
    EvaluateFunction: {
      path: EVALUATE_FUNCTION,
      requestStream: false,
      responseStream: false,
      requestSerialize: encodeRequest,
      requestDeserialize: decodeRequest,
      responseSerialize: (r: EvaluateFunctionResponse) =>
        mode === "garbage" ? Buffer.from([0x0a, 0xff, 0xff, 0x7f, 0x01]) : encodeResponse(r),
      responseDeserialize: decodeResponse,
    },
  };
  const pending = new Set<() => void>();
  server.addService(definition, {
    EvaluateFunction: (
      call: grpc.ServerUnaryCall<EvaluateFunctionRequest, EvaluateFunctionResponse>,
      callback: grpc.sendUnaryData<EvaluateFunctionResponse>,
    ) => {
      const request = call.request;
      requests.push(request);
      if (mode === "slow") {
        pending.add(() => callback({ code: grpc.status.CANCELLED, details: "stopped" }));
        return;
      }
      const argv = options.images[request.image];
      if (!argv) {
        callback({ code: grpc.status.NOT_FOUND, details: `no function with image ${request.image}` });
        return;
      }
      runFunction(argv, request.resourceList).then(
        ({ code, out, err }) => {
          if (code !== 0) {
            callback({
              code: grpc.status.INTERNAL,
              details: `failed to evaluate function "${request.image}" with structured results: [] and stderr: ${err.toString()}`,
            });
          } else callback(null, { resourceList: out, log: err });
        },
        (error: Error) => callback({ code: grpc.status.INTERNAL, details: error.message }),
      );
    },
  });
  const credentials = options.tls
    ? grpc.ServerCredentials.createSsl(null, [
        { private_key: Buffer.from(options.tls.key), cert_chain: Buffer.from(options.tls.cert) },
      ])
    : grpc.ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", credentials, (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return {
    address: `127.0.0.1:${port}`,
    requests,
    stop: async () => {
      for (const answer of pending) answer();
      server.forceShutdown();
    },
  };
}
