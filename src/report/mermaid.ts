/**
 * The upstream → downstream graph as a Mermaid flowchart (GitHub renders ```mermaid blocks in issues,
 * pull requests and check run summaries): one node per upstream package, one per downstream package,
 * an edge from each upstream to the downstreams cloned from it, each downstream coloured by its state.
 * Pure and deterministic: nodes are numbered in the order of the sorted input.
 */

/** How a downstream stands against its upstream (its node's colour). */
export type DownstreamState = "current" | "behind" | "failing" | "overrides" | "unknown";

/** One edge of the graph. */
export interface GraphEdge {
  /** The upstream package, e.g. `acme/pkgs/base` or a package path. */
  upstream: string;
  /** Shown under the upstream's name, e.g. its latest revision `v3`. */
  upstreamNote?: string;
  /** The downstream package, `owner/repo/package`. */
  downstream: string;
  /** Shown under the downstream's name, e.g. `v2 · 1 behind`. */
  downstreamNote?: string;
  state: DownstreamState;
}

const CLASS_DEFS: Record<DownstreamState | "upstream", string> = {
  upstream: "fill:#ddf4ff,stroke:#0969da,color:#0a3069",
  current: "fill:#dafbe1,stroke:#1a7f37,color:#0f5323",
  behind: "fill:#fff8c5,stroke:#9a6700,color:#4d2d00",
  overrides: "fill:#fff8c5,stroke:#9a6700,color:#4d2d00",
  failing: "fill:#ffebe9,stroke:#cf222e,color:#82071e",
  unknown: "fill:#f6f8fa,stroke:#8c959f,color:#24292f",
};

/** A label safe inside `["..."]`: Mermaid's entity codes for quotes and angle brackets. */
function label(name: string, note: string | undefined): string {
  const entities = (s: string) =>
    s.replace(/&/g, "#amp;").replace(/"/g, "#quot;").replace(/</g, "#lt;").replace(/>/g, "#gt;");
  return note ? `"${entities(name)}<br/>${entities(note)}"` : `"${entities(name)}"`;
}

/**
 * The flowchart text (no fences) for `edges`; an empty graph says so in a single node.
 * Upstream nodes are `u0, u1...`, downstream nodes `d0, d1...`, in sorted order.
 */
export function mermaidGraph(edges: readonly GraphEdge[]): string {
  const sorted = [...edges].sort((a, b) =>
    a.upstream === b.upstream
      ? a.downstream.localeCompare(b.downstream)
      : a.upstream.localeCompare(b.upstream),
  );
  const lines = ["flowchart LR"];
  if (sorted.length === 0) {
    lines.push(`  none[${label("no downstream packages", undefined)}]`);
    return `${lines.join("\n")}\n`;
  }
  const upstreams = new Map<string, string>();
  const downstreams = new Map<string, { id: string; state: DownstreamState }>();
  for (const e of sorted) {
    if (!upstreams.has(e.upstream)) {
      const id = `u${upstreams.size}`;
      upstreams.set(e.upstream, id);
      lines.push(`  ${id}[${label(e.upstream, e.upstreamNote)}]`);
    }
    if (!downstreams.has(e.downstream)) {
      const id = `d${downstreams.size}`;
      downstreams.set(e.downstream, { id, state: e.state });
      lines.push(`  ${id}[${label(e.downstream, e.downstreamNote)}]`);
    }
  }
  for (const e of sorted)
    lines.push(`  ${upstreams.get(e.upstream)} --> ${downstreams.get(e.downstream)?.id}`);
  const used = new Set<DownstreamState | "upstream">(["upstream"]);
  lines.push(`  class ${[...upstreams.values()].join(",")} upstream`);
  for (const state of Object.keys(CLASS_DEFS) as DownstreamState[]) {
    const ids = [...downstreams.values()].filter((d) => d.state === state).map((d) => d.id);
    if (ids.length === 0) continue;
    used.add(state);
    lines.push(`  class ${ids.join(",")} ${state}`);
  }
  for (const name of Object.keys(CLASS_DEFS) as (DownstreamState | "upstream")[]) {
    if (used.has(name)) lines.push(`  classDef ${name} ${CLASS_DEFS[name]}`);
  }
  return `${lines.join("\n")}\n`;
}

/** {@link mermaidGraph} in a fenced ```mermaid block, for Markdown. */
export function mermaidBlock(edges: readonly GraphEdge[]): string {
  return `\`\`\`mermaid\n${mermaidGraph(edges)}\`\`\`\n`;
}

/** The state of a downstream on `revision` of an upstream whose latest is `latest`. */
export function revisionState(latest: number | undefined, revision: number | undefined): DownstreamState {
  if (latest === undefined || revision === undefined) return "unknown";
  return revision >= latest ? "current" : "behind";
}

/** `v2 · 1 behind` / `v3` / `-`. */
export function revisionNote(latest: number | undefined, revision: number | undefined): string {
  if (revision === undefined) return "revision unknown";
  const behind = latest !== undefined && latest > revision ? ` · ${latest - revision} behind` : "";
  return `v${revision}${behind}`;
}
