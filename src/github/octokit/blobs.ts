/**
 * Blob reads in batches: one GraphQL request reads hundreds of blobs (`object(oid:)` aliases on
 * `Blob { text }`), so a package of a thousand files costs two requests instead of a thousand
 * `GET git/blobs`. GraphQL only carries text, and at most 512,000 bytes of it (`isTruncated`): binary
 * blobs, blobs known to be larger and any text whose bytes do not hash back to the blob's sha (text
 * that is not valid UTF-8) are read with `GET git/blobs/{sha}` (base64, up to GitHub's 100 MB).
 */
import { createHash } from "node:crypto";
import { type BlobRef, GitHubError, type RepoRef } from "../port.js";
import { type Octokit, parseJson, RAW_BODY, repositoryFields } from "./client.js";
import { call } from "./errors.js";

/** Blobs per GraphQL request (a package of up to 1,200 files in two requests). */
export const BLOBS_PER_REQUEST = 600;
/** Known bytes per GraphQL request (sizes from the tree): a batch stops growing past this. */
export const BYTES_PER_REQUEST = 40 * 1024 * 1024;
/** GitHub's GraphQL `Blob.text` holds at most this many bytes (`isTruncated` beyond). */
export const GRAPHQL_TEXT_LIMIT = 512_000;
/** How many `GET git/blobs` fallbacks run at once. */
const REST_CONCURRENCY = 4;

const SHA = /^[0-9a-f]{40}$/;

/** Git's object id of a blob with these bytes. */
export function gitBlobSha(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.byteLength}\0`).update(bytes).digest("hex");
}

/** Splits blobs into GraphQL batches by count and known size. */
export function batchBlobs(blobs: readonly BlobRef[]): BlobRef[][] {
  const batches: BlobRef[][] = [];
  let current: BlobRef[] = [];
  let bytes = 0;
  for (const blob of blobs) {
    const size = blob.size ?? 0;
    if (current.length > 0 && (current.length >= BLOBS_PER_REQUEST || bytes + size > BYTES_PER_REQUEST)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(blob);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

interface BlobNode {
  text: string | null;
  isTruncated: boolean;
  isBinary: boolean | null;
}

async function readBatch(
  octokit: Octokit,
  repo: RepoRef,
  batch: readonly BlobRef[],
): Promise<{ read: Map<string, Uint8Array>; missed: string[] }> {
  const fields = batch.map(
    (b, i) => `b${i}: object(oid: "${b.sha}") { ... on Blob { text isTruncated isBinary } }`,
  );
  const nodes = await repositoryFields<BlobNode>(
    octokit,
    repo,
    "graphql.blobs",
    "query porchlightBlobs",
    fields,
  );
  const read = new Map<string, Uint8Array>();
  const missed: string[] = [];
  batch.forEach((blob, i) => {
    const node = nodes[`b${i}`];
    if (!node || node.text === null || node.isTruncated || node.isBinary) {
      missed.push(blob.sha);
      return;
    }
    const bytes = new TextEncoder().encode(node.text);
    // The text is a decoding: keep it only when it gives back the exact blob.
    if (gitBlobSha(bytes) === blob.sha) read.set(blob.sha, bytes);
    else missed.push(blob.sha);
  });
  return { read, missed };
}

/** `GET git/blobs/{sha}`, base64-decoded. */
export async function readBlobRest(octokit: Octokit, repo: RepoRef, sha: string): Promise<Uint8Array> {
  // Multi-MB bodies: parsed natively (see RAW_BODY).
  const data = await call("git.getBlob", async () =>
    parseJson((await octokit.rest.git.getBlob({ ...repo, file_sha: sha, request: RAW_BODY })).data),
  );
  if (data.encoding !== "base64" && data.encoding !== "utf-8") {
    throw new GitHubError({
      kind: "rejected",
      operation: "git.getBlob",
      message: `unexpected encoding ${data.encoding} of ${sha}`,
    });
  }
  return data.encoding === "base64"
    ? new Uint8Array(Buffer.from(data.content.replace(/\s/g, ""), "base64"))
    : new TextEncoder().encode(data.content);
}

async function mapLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Reads `blobs` (deduplicated by sha); see the module comment for the requests made. */
export async function readBlobs(
  clients: { graphql: Octokit; rest: Octokit },
  repo: RepoRef,
  blobs: readonly BlobRef[],
): Promise<Map<string, Uint8Array>> {
  const unique = [...new Map(blobs.map((b) => [b.sha, b])).values()];
  for (const b of unique) {
    if (!SHA.test(b.sha))
      throw new GitHubError({
        kind: "rejected",
        operation: "graphql.blobs",
        message: `not a blob sha: ${b.sha}`,
      });
  }
  const large = unique.filter((b) => (b.size ?? 0) > GRAPHQL_TEXT_LIMIT).map((b) => b.sha);
  const small = unique.filter((b) => (b.size ?? 0) <= GRAPHQL_TEXT_LIMIT);
  const out = new Map<string, Uint8Array>();
  const rest = [...large];
  for (const batch of batchBlobs(small)) {
    const { read, missed } = await readBatch(clients.graphql, repo, batch);
    for (const [sha, bytes] of read) out.set(sha, bytes);
    rest.push(...missed);
  }
  await mapLimit(rest, REST_CONCURRENCY, async (sha) => {
    out.set(sha, await readBlobRest(clients.rest, repo, sha));
  });
  return out;
}
