// Summarises a V8 CPU profile (`node --cpu-prof`): where a server spends its time, by function
// (self time) and by where the code comes from (our app, a package, Node itself, the garbage
// collector). Used by bench/profile-authenticate.ts; the summaries before and after a change are
// kept in docs/decisions/.
import { readFileSync } from "node:fs";

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A stretch of time on the machine's monotonic clock in µs (`process.hrtime.bigint() / 1000n`),
 * which V8's profile timestamps also count in. */
export interface ProfileWindow {
  fromMicros: number;
  toMicros: number;
}

/** Where a frame's code comes from: `(program)`, `(idle)`, `(garbage collector)`, `node:…`, a package, or app code. */
export function originOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:"))
    return url
      .replace(/^node:(internal\/)?/, "node:")
      .split("/")
      .slice(0, 2)
      .join("/");
  const modules = url.lastIndexOf("/node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "/node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.includes("/build/server/")) return "app (build/server)";
  if (url.includes("/build/node/")) return "app (build/node)";
  return url
    .replace(/^file:\/\//, "")
    .split("/")
    .slice(-2)
    .join("/");
}

export interface ProfileSummary {
  totalMs: number;
  busyMs: number;
  byFunction: { name: string; origin: string; ms: number }[];
  byOrigin: { origin: string; ms: number }[];
}

/** `window`: only the samples taken in it (the load, not the start or the warm-up). */
export function summariseProfile(path: string, window?: ProfileWindow): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMicros = new Map<number, number>();
  let at = profile.startTime;
  for (const [i, id] of profile.samples.entries()) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (window && (at < window.fromMicros || at > window.toMicros)) continue;
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + delta);
  }
  const functions = new Map<string, { name: string; origin: string; ms: number }>();
  const origins = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  for (const [id, micros] of selfMicros) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const ms = micros / 1000;
    totalMs += ms;
    if (functionName === "(idle)") {
      idleMs += ms;
      continue;
    }
    const origin = originOf(url, functionName);
    const name = `${functionName || "(anonymous)"}${url ? ` ${url.split("/").pop()}:${lineNumber + 1}` : ""}`;
    const entry = functions.get(name) ?? { name, origin, ms: 0 };
    entry.ms += ms;
    functions.set(name, entry);
    origins.set(origin, (origins.get(origin) ?? 0) + ms);
  }
  return {
    totalMs,
    busyMs: totalMs - idleMs,
    byFunction: [...functions.values()].sort((a, b) => b.ms - a.ms),
    byOrigin: [...origins].map(([origin, ms]) => ({ origin, ms })).sort((a, b) => b.ms - a.ms),
  };
}

/** Two Markdown tables: the top origins and the top functions by self time, as shares of busy time. */
export function formatSummary(summary: ProfileSummary, requests: number, top = 25): string {
  const share = (ms: number) => `${((ms / summary.busyMs) * 100).toFixed(1)}%`;
  const perRequest = (ms: number) => `${((ms * 1000) / requests).toFixed(1)} µs`;
  return `Busy ${summary.busyMs.toFixed(0)} ms of ${summary.totalMs.toFixed(0)} ms profiled, ${requests} requests: ${perRequest(summary.busyMs)} per request on the main thread.

| Where the code comes from | self time | per request |
|---|---:|---:|
${summary.byOrigin
  .slice(0, 15)
  .map((o) => `| ${o.origin} | ${share(o.ms)} | ${perRequest(o.ms)} |`)
  .join("\n")}

| Function (self time) | from | share | per request |
|---|---|---:|---:|
${summary.byFunction
  .slice(0, top)
  .map((f) => `| ${f.name.replaceAll("|", "\\|")} | ${f.origin} | ${share(f.ms)} | ${perRequest(f.ms)} |`)
  .join("\n")}`;
}
