/**
 * The environment a render worker sees, and with it every `exec:` function and container engine it
 * starts: an allowlist of harmless variables. The server's secrets (private key, webhook secret, Redis
 * URL, tokens) never reach a function, whatever the operator lists.
 */

/** Variables passed by default: what programs need to run (paths, locale, time zone, container engine address). */
const DEFAULT_NAMES = [
  "PATH",
  "HOME",
  "USER",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TMPDIR",
  "TEMP",
  "TMP",
  "DOCKER_HOST",
  "CONTAINER_HOST",
  "XDG_RUNTIME_DIR",
];

/** Never passed, even when listed in `PORCHLIGHT_FUNCTION_ENV`. */
const SECRET = /KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL|REDIS|DSN|COOKIE|AUTH/i;

/**
 * The worker environment: `DEFAULT_NAMES`, `LC_*`, and the names the operator adds in
 * `PORCHLIGHT_FUNCTION_ENV` (comma-separated, e.g. `HTTPS_PROXY,NO_PROXY`), minus anything that looks
 * like a secret (names containing KEY, SECRET, TOKEN, PASSWORD, CREDENTIAL, REDIS, DSN, COOKIE, AUTH).
 */
export function functionEnv(env: Record<string, string | undefined>): Record<string, string> {
  const extra = (env.PORCHLIGHT_FUNCTION_ENV ?? "")
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  const names = new Set([...DEFAULT_NAMES, ...extra, ...Object.keys(env).filter((n) => n.startsWith("LC_"))]);
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && !SECRET.test(name)) out[name] = value;
  }
  return out;
}
