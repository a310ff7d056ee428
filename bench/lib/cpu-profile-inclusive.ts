// A V8 CPU profile by function including what each calls (total time), beside bench/lib/cpu-profile.ts's
// self time: "the render takes 60%" or "the loader's serialization takes 8%" are total times, which
// self time spreads over hundreds of small React and stream frames. Used by bench/profile-pages.ts.
import { readFileSync } from "node:fs";

import type { CpuProfile, ProfileNode } from "./cpu-profile.ts";

const frameName = ({ functionName, url, lineNumber }: ProfileNode["callFrame"]) =>
  `${functionName || "(anonymous)"}${url ? ` ${url.split("/").pop()}:${lineNumber + 1}` : ""}`;

/** Functions by total time (each sample counted once per function, however deep it recurses). */
export function inclusiveTimes(path: string): { name: string; ms: number }[] {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  for (const [i, sampled] of profile.samples.entries()) {
    const micros = profile.timeDeltas[i] ?? 0;
    if (byId.get(sampled)!.callFrame.functionName === "(idle)") continue;
    const seen = new Set<string>();
    for (let id: number | undefined = sampled; id !== undefined; id = parent.get(id)) {
      const name = frameName(byId.get(id)!.callFrame);
      if (seen.has(name)) continue;
      seen.add(name);
      totals.set(name, (totals.get(name) ?? 0) + micros / 1000);
    }
  }
  return [...totals].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}

/** The top functions by total time, as a Markdown table of shares of busy time. */
export function formatInclusive(path: string, busyMs: number, requests: number, top = 30): string {
  const rows = inclusiveTimes(path)
    .filter((f) => !f.name.startsWith("(root)"))
    .slice(0, top);
  return `| Function (total time, with what it calls) | share | per request |
|---|---:|---:|
${rows.map((f) => `| ${f.name.replaceAll("|", "\\|")} | ${((f.ms / busyMs) * 100).toFixed(1)}% | ${((f.ms * 1000) / requests).toFixed(1)} µs |`).join("\n")}`;
}
