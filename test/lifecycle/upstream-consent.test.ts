import { describe, expect, it } from "vitest";
import { DEFAULT_CONSENT_POLICY, readConsentPolicy } from "../../src/config/upstream-consent.js";
import { matchesRepo, upstreamAccess } from "../../src/lifecycle/upstream-consent.js";
import { MemoryInstallation } from "./support/memory-installation.js";

const ref = (full: string) => {
  const [owner = "", repo = ""] = full.split("/");
  return { owner, repo };
};

describe("consent for cross-repository upstream reads", () => {
  it("matches owner/name, owner/* and * case-insensitively", () => {
    expect(matchesRepo("acme/deploy", "ACME/Deploy")).toBe(true);
    expect(matchesRepo("acme/*", "acme/x")).toBe(true);
    expect(matchesRepo("acme/*", "acmex/x")).toBe(false);
    expect(matchesRepo("*", "globex/x")).toBe(true);
    expect(matchesRepo("acme/deploy", "acme/deploy2")).toBe(false);
  });

  it("reads the operator's rules and refuses bad ones, naming the variable", () => {
    expect(
      readConsentPolicy({ PORCHLIGHT_UPSTREAM_CONSENT: "acme/blueprints=acme/*, *=globex/ops" }),
    ).toEqual({
      rules: [
        { upstream: "acme/blueprints", consumer: "acme/*" },
        { upstream: "*", consumer: "globex/ops" },
      ],
      publicUpstreams: "open",
    });
    expect(readConsentPolicy({})).toEqual(DEFAULT_CONSENT_POLICY);
    expect(() => readConsentPolicy({ PORCHLIGHT_UPSTREAM_CONSENT: "acme/../x=y" })).toThrow(
      /PORCHLIGHT_UPSTREAM_CONSENT: "acme\/..\/x=y"/,
    );
    expect(() => readConsentPolicy({ PORCHLIGHT_PUBLIC_UPSTREAMS: "maybe" })).toThrow(
      /PORCHLIGHT_PUBLIC_UPSTREAMS/,
    );
  });

  it("allows the same repository, the operator's pairs, public upstreams and the upstream's consumers; refuses the rest with the reason", async () => {
    const inst = new MemoryInstallation();
    inst.add("acme/secret", { "base/Kptfile": "kind: Kptfile\n" });
    inst.add("acme/open", {
      "base/Kptfile": "kind: Kptfile\n",
      ".github/porchlight.yml": "consumers: [acme/deploy, globex/*]\n",
    });
    inst.add("acme/broken", { ".github/porchlight.yml": "consumers: acme/deploy\n" });
    inst.add("acme/catalog", {}, { public: true });
    inst.add("acme/deploy", {});
    const ask = (up: string, down: string, policy = DEFAULT_CONSENT_POLICY) =>
      upstreamAccess({ port: inst.port, policy, downstream: ref(down), upstream: ref(up) });

    expect(await ask("acme/secret", "ACME/secret")).toEqual({ allowed: true, via: "same-repository" });
    const refused = await ask("acme/secret", "acme/deploy");
    expect(refused.allowed).toBe(false);
    expect(!refused.allowed && refused.reason).toContain(
      "acme/secret has not consented to be read by acme/deploy: its .github/porchlight.yml does not list acme/deploy in consumers",
    );
    const operator = {
      rules: [{ upstream: "acme/secret", consumer: "acme/*" }],
      publicUpstreams: "open" as const,
    };
    expect(await ask("acme/secret", "acme/deploy", operator)).toEqual({ allowed: true, via: "operator" });
    expect(await ask("acme/open", "acme/deploy")).toEqual({ allowed: true, via: "upstream" });
    expect(await ask("acme/open", "globex/anything")).toEqual({ allowed: true, via: "upstream" });
    expect((await ask("acme/open", "acme/other")).allowed).toBe(false);
    const broken = await ask("acme/broken", "acme/deploy");
    expect(!broken.allowed && broken.reason).toContain("its .github/porchlight.yml cannot be read");
    expect(await ask("acme/catalog", "acme/deploy")).toEqual({ allowed: true, via: "public" });
    const strict = { rules: [], publicUpstreams: "consent" as const };
    expect((await ask("acme/catalog", "acme/deploy", strict)).allowed).toBe(false);
  });
});
