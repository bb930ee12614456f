import { describe, expect, it } from "vitest";
import { loadRepoConfig, parseRepoConfig } from "../../src/config/load.js";

describe("repository config", () => {
  it("applies defaults when the file is absent", () => {
    const result = parseRepoConfig(null);
    expect(result).toEqual({
      ok: true,
      config: {
        draftBranchPrefix: "drafts/",
        pushOnFailure: "Unrendered",
        kptfileStatus: "full",
        deleteBranchOnPublish: true,
        directories: ["/"],
        convertFailingToDraft: true,
        enforceReadinessGates: true,
        deployment: false,
        packageVariants: { directory: "package-variants/", injectors: "package-variant-injectors/" },
        upgrades: { autoMerge: false },
        dashboard: false,
        consumers: [],
      },
    });
  });

  it("takes kptfileStatus from the operator unless the file sets it", () => {
    const defaults = { kptfileStatus: "conditions" } as const;
    const absent = parseRepoConfig(null, { defaults });
    expect(absent.ok && absent.config.kptfileStatus).toBe("conditions");
    const set = parseRepoConfig({ kptfileStatus: "full" }, { defaults });
    expect(set.ok && set.config.kptfileStatus).toBe("full");
    expect(parseRepoConfig({ kptfileStatus: "old" }).ok).toBe(false);
  });

  it("takes pushOnFailure from the operator unless the file sets it (the file overrides)", () => {
    const defaults = { pushOnFailure: "None" } as const;
    const absent = parseRepoConfig(null, { defaults });
    expect(absent.ok && absent.config.pushOnFailure).toBe("None");
    const silent = parseRepoConfig({ deleteBranchOnPublish: false }, { defaults });
    expect(silent.ok && silent.config.pushOnFailure).toBe("None");
    const set = parseRepoConfig({ pushOnFailure: "PartiallyRendered" }, { defaults });
    expect(set.ok && set.config.pushOnFailure).toBe("PartiallyRendered");
  });

  it("keeps a usable draftBranchPrefix of a bad file, so the error reaches draft pushes", () => {
    expect(parseRepoConfig({ draftBranchPrefix: "porch/", pushOnFailure: "Later" })).toMatchObject({
      ok: false,
      draftBranchPrefix: "porch/",
    });
    expect(parseRepoConfig({ draftBranchPrefix: "a b" })).not.toHaveProperty("draftBranchPrefix");
  });

  it("keeps the values it is given", () => {
    const result = parseRepoConfig({
      pushOnFailure: "None",
      deleteBranchOnPublish: false,
      directories: ["catalog"],
    });
    expect(result.ok && result.config).toMatchObject({
      pushOnFailure: "None",
      deleteBranchOnPublish: false,
      directories: ["catalog"],
      draftBranchPrefix: "drafts/",
    });
  });

  it("names the file, the field and the bad value", () => {
    const result = parseRepoConfig({ pushOnFailure: "Later" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toMatch(/^\.github\/porchlight\.yml: field "pushOnFailure": /);
    expect(result.message).toContain('"PartiallyRendered"');
    expect(result.message).toContain('(got "Later")');
  });

  it("reports misspelt fields instead of ignoring them", () => {
    const result = parseRepoConfig({ pushOnFailur: "None" });
    expect(result).toEqual({ ok: false, message: '.github/porchlight.yml: unknown field "pushOnFailur"' });
  });

  it("points into arrays and joins several problems", () => {
    const result = parseRepoConfig({ directories: ["ok", 3], deleteBranchOnPublish: "yes" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('field "directories[1]"');
    expect(result.message).toContain("(got 3)");
    expect(result.message).toContain('field "deleteBranchOnPublish"');
    expect(result.message.split("; ")).toHaveLength(2);
  });

  it("rejects a file that is not a mapping", () => {
    expect(parseRepoConfig("pushOnFailure")).toEqual({
      ok: false,
      message: '.github/porchlight.yml: must be a YAML mapping of settings, got "pushOnFailure"',
    });
  });

  it("turns a failing read (YAML syntax error) into a message, never a throw", async () => {
    const result = await loadRepoConfig(async () => {
      throw new Error("Nested mappings are not allowed in compact mappings at line 1\nmore");
    });
    expect(result).toEqual({
      ok: false,
      message:
        ".github/porchlight.yml: cannot be read: Nested mappings are not allowed in compact mappings at line 1",
    });
  });

  it("rejects a directory that climbs out of the repository", () => {
    const result = parseRepoConfig({ directories: ["../x"] });
    expect(result.ok).toBe(false);
  });
});
