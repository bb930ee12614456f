/**
 * The upstream → downstream graph as Mermaid: exact text (what GitHub draws), labels escaped, states
 * coloured, deterministic whatever the input order; the rpkg get --downstreams and porchlight/downstreams
 * views built on it.
 */
import { describe, expect, it } from "vitest";
import { downstreamsMermaid } from "../../src/cli/rpkg-downstreams.js";
import { blastRadiusOutput } from "../../src/report/blast-radius.js";
import { mermaidBlock, mermaidGraph, revisionNote, revisionState } from "../../src/report/mermaid.js";

describe("mermaidGraph", () => {
  it("draws each upstream to its downstreams, coloured by state, in a stable order", () => {
    const edges = [
      {
        upstream: "base",
        upstreamNote: "latest v3",
        downstream: "acme/deploy/west/app",
        downstreamNote: "v3",
        state: "current" as const,
      },
      {
        upstream: "base",
        upstreamNote: "latest v3",
        downstream: "acme/deploy/east/app",
        downstreamNote: "v1 · 2 behind",
        state: "behind" as const,
      },
      { upstream: "cache", downstream: "acme/deploy/east/cache", state: "unknown" as const },
    ];
    const text = mermaidGraph(edges);
    expect(text).toBe(
      [
        "flowchart LR",
        '  u0["base<br/>latest v3"]',
        '  d0["acme/deploy/east/app<br/>v1 · 2 behind"]',
        '  d1["acme/deploy/west/app<br/>v3"]',
        '  u1["cache"]',
        '  d2["acme/deploy/east/cache"]',
        "  u0 --> d0",
        "  u0 --> d1",
        "  u1 --> d2",
        "  class u0,u1 upstream",
        "  class d1 current",
        "  class d0 behind",
        "  class d2 unknown",
        "  classDef upstream fill:#ddf4ff,stroke:#0969da,color:#0a3069",
        "  classDef current fill:#dafbe1,stroke:#1a7f37,color:#0f5323",
        "  classDef behind fill:#fff8c5,stroke:#9a6700,color:#4d2d00",
        "  classDef unknown fill:#f6f8fa,stroke:#8c959f,color:#24292f",
        "",
      ].join("\n"),
    );
    expect(mermaidGraph([...edges].reverse())).toBe(text);
    expect(mermaidBlock(edges)).toBe(`\`\`\`mermaid\n${text}\`\`\`\n`);
  });

  it("escapes what would end a label or open HTML, and says when there is nothing", () => {
    const text = mermaidGraph([{ upstream: 'a"b', downstream: "x<script>&", state: "failing" }]);
    expect(text).toContain('u0["a#quot;b"]');
    expect(text).toContain('d0["x#lt;script#gt;#amp;"]');
    expect(text).not.toMatch(/<script>/);
    expect(mermaidGraph([])).toBe('flowchart LR\n  none["no downstream packages"]\n');
  });

  it("tells current, behind and unknown revisions apart", () => {
    expect([
      revisionState(3, 3),
      revisionState(3, 1),
      revisionState(undefined, 1),
      revisionState(2, undefined),
    ]).toEqual(["current", "behind", "unknown", "unknown"]);
    expect([revisionNote(3, 1), revisionNote(3, 3), revisionNote(3, undefined)]).toEqual([
      "v1 · 2 behind",
      "v3",
      "revision unknown",
    ]);
  });
});

describe("the views that draw it", () => {
  it("rpkg get --downstreams -o mermaid: latest revision, each downstream's, its variant", () => {
    const text = downstreamsMermaid([
      { package: "base", latest: 5, downstream: "acme/deploy/east/app", revision: 1, variant: undefined },
      { package: "base", latest: 5, downstream: "acme/deploy/south/app", revision: 5, variant: "south" },
    ]);
    expect(text).toContain('u0["base<br/>latest v5"]');
    expect(text).toContain('d0["acme/deploy/east/app<br/>v1 · 4 behind"]');
    expect(text).toContain('d1["acme/deploy/south/app<br/>v5 · variant south"]');
    expect(text).toContain("  class d0 behind\n");
    expect(text).toContain("  class d1 current\n");
  });

  it("the porchlight/downstreams check carries the graph of the proposed change, by verdict", () => {
    const output = blastRadiusOutput([
      { upstreamPackage: "base", downstream: "acme/deploy/east/app", revision: 1, overrides: [] },
      {
        upstreamPackage: "base",
        downstream: "acme/deploy/west/app",
        revision: 2,
        overrides: [],
        error: "conflict",
      },
    ]);
    expect(output.summary).toContain("```mermaid\nflowchart LR\n");
    expect(output.summary).toContain('u0["base<br/>proposed change"]');
    expect(output.summary).toContain('d0["acme/deploy/east/app<br/>on v1 · clean"]');
    expect(output.summary).toContain('d1["acme/deploy/west/app<br/>on v2 · would fail"]');
    expect(output.summary).toContain("  class d1 failing\n");
  });
});
