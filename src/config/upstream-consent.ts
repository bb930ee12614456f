/**
 * The operator's consent for cross-repository upstream reads (`PORCHLIGHT_UPSTREAM_CONSENT`,
 * `PORCHLIGHT_PUBLIC_UPSTREAMS`); the model is in lifecycle/upstream-consent.ts. Read by `environment.ts`
 * through operator-settings.ts.
 */
/** A repository pattern: `owner/name`, `owner/*` or `*` (case-insensitive, as GitHub's names). */
export type RepoPattern = string;

/** The operator's consent settings. */
export interface ConsentPolicy {
  /** Pairs the operator allows: `upstream` pattern → `consumer` pattern. */
  rules: { upstream: RepoPattern; consumer: RepoPattern }[];
  /** Whether a public upstream needs consent too (`consent`) or none (`open`, default). */
  publicUpstreams: "open" | "consent";
}

/** No operator rule; public upstreams open: the default. */
export const DEFAULT_CONSENT_POLICY: ConsentPolicy = { rules: [], publicUpstreams: "open" };

/** `owner/name`, `owner/*` or `*`. */
const REPO_PATTERN = /^(\*|[A-Za-z0-9-]+\/(\*|[A-Za-z0-9._-]+))$/;

/**
 * Reads `PORCHLIGHT_UPSTREAM_CONSENT` (`acme/blueprints=acme/*,globex/*=globex/*`; `*=*` restores reading
 * every granted repository) and `PORCHLIGHT_PUBLIC_UPSTREAMS` (`open` | `consent`). Throws an Error naming
 * the variable and the bad entry.
 */
export function readConsentPolicy(env: Record<string, string | undefined>): ConsentPolicy {
  const rules: ConsentPolicy["rules"] = [];
  for (const entry of (env.PORCHLIGHT_UPSTREAM_CONSENT ?? "").split(",")) {
    const text = entry.trim();
    if (!text) continue;
    const [upstream = "", consumer = "", ...rest] = text.split("=").map((x) => x.trim());
    if (rest.length > 0 || !REPO_PATTERN.test(upstream) || !REPO_PATTERN.test(consumer)) {
      throw new Error(
        `porchlight: invalid environment variable PORCHLIGHT_UPSTREAM_CONSENT: ${JSON.stringify(text)} is not <upstream>=<consumer> (each owner/name, owner/* or *)`,
      );
    }
    rules.push({ upstream, consumer });
  }
  const pub = env.PORCHLIGHT_PUBLIC_UPSTREAMS?.trim() || "open";
  if (pub !== "open" && pub !== "consent") {
    throw new Error(
      `porchlight: invalid environment variable PORCHLIGHT_PUBLIC_UPSTREAMS: must be open or consent (got ${JSON.stringify(pub)})`,
    );
  }
  return { rules, publicUpstreams: pub };
}
