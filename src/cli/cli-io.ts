/** How the GitHub-reading commands meet the world. */
import type { RestClientEnv } from "../github/rest-client.js";

/** Where the command reads its environment and writes its output (injectable for tests). */
export interface CliIo {
  env: RestClientEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}
