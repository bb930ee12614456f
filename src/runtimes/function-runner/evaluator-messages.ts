/**
 * The messages of Porch's function-runner gRPC API (nephio-project/porch `func/evaluator/evaluator.proto`),
 * encoded by hand — two flat messages do not need a `.proto` loader at run time:
 *
 * ```proto
 * package evaluator;
 * service FunctionEvaluator {
 *   rpc EvaluateFunction(EvaluateFunctionRequest) returns (EvaluateFunctionResponse) {}
 * }
 * message EvaluateFunctionRequest {
 *   bytes resource_list = 1;  // serialized ResourceList
 *   string image = 2;         // the function's image
 * }
 * message EvaluateFunctionResponse {
 *   bytes resource_list = 1;  // serialized ResourceList, with the function's results
 *   bytes log = 2;            // what the function wrote to stderr
 * }
 * ```
 */

/** The full method name gRPC calls (`/<package>.<Service>/<Method>`). */
export const EVALUATE_FUNCTION = "/evaluator.FunctionEvaluator/EvaluateFunction";

/** `EvaluateFunctionRequest`. */
export interface EvaluateFunctionRequest {
  resourceList: Uint8Array;
  image: string;
}

/** `EvaluateFunctionResponse` (absent fields decode as empty, as in proto3). */
export interface EvaluateFunctionResponse {
  resourceList: Uint8Array;
  log: Uint8Array;
}

function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}

function lengthDelimited(field: number, bytes: Uint8Array): Buffer[] {
  if (bytes.length === 0) return []; // proto3 leaves default values out
  return [Buffer.from([...varint((field << 3) | 2), ...varint(bytes.length)]), Buffer.from(bytes)];
}

/** Encodes fields 1 and 2 of either message (both are length-delimited). */
function encodeTwoFields(first: Uint8Array, second: Uint8Array): Buffer {
  return Buffer.concat([...lengthDelimited(1, first), ...lengthDelimited(2, second)]);
}

/** Protobuf wire bytes of a request. */
export function encodeRequest(request: EvaluateFunctionRequest): Buffer {
  return encodeTwoFields(request.resourceList, Buffer.from(request.image, "utf8"));
}

/** Protobuf wire bytes of a response. */
export function encodeResponse(response: EvaluateFunctionResponse): Buffer {
  return encodeTwoFields(response.resourceList, response.log);
}

class Reader {
  private at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  done(): boolean {
    return this.at >= this.bytes.length;
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      if (this.at >= this.bytes.length) throw new Error("truncated varint");
      const byte = this.bytes[this.at++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
    throw new Error("varint too long");
  }

  take(length: number): Uint8Array {
    if (length > this.bytes.length - this.at) throw new Error("field runs past the end of the message");
    const out = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    return out;
  }
}

/** Fields 1 and 2 of a message (length-delimited); other fields are skipped, as protobuf readers do. */
function decodeTwoFields(bytes: Uint8Array, name: string): [Uint8Array, Uint8Array] {
  const fields: [Uint8Array, Uint8Array] = [new Uint8Array(), new Uint8Array()];
  const reader = new Reader(bytes);
  try {
    while (!reader.done()) {
      const key = reader.varint();
      const field = Math.floor(key / 8);
      const wireType = key % 8;
      if (field === 0) throw new Error("field number 0");
      if (wireType === 0) reader.varint();
      else if (wireType === 1) reader.take(8);
      else if (wireType === 5) reader.take(4);
      else if (wireType === 2) {
        const value = reader.take(reader.varint());
        if (field === 1 || field === 2) fields[field - 1] = value;
      } else throw new Error(`unsupported wire type ${wireType}`);
    }
  } catch (err) {
    throw new Error(`invalid ${name}: ${(err as Error).message}`);
  }
  return fields;
}

/** Decodes a request. @throws Error naming what is wrong with malformed bytes. */
export function decodeRequest(bytes: Uint8Array): EvaluateFunctionRequest {
  const [resourceList, image] = decodeTwoFields(bytes, "EvaluateFunctionRequest");
  return { resourceList, image: Buffer.from(image).toString("utf8") };
}

/** Decodes a response. @throws Error naming what is wrong with malformed bytes. */
export function decodeResponse(bytes: Uint8Array): EvaluateFunctionResponse {
  const [resourceList, log] = decodeTwoFields(bytes, "EvaluateFunctionResponse");
  return { resourceList, log };
}
