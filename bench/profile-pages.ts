// Where a page's time goes: the production start (`node build/node/start.js`) under a V8 CPU
// profiler, loaded by autocannon (10 connections, as bench/audit-view.ts measures throughput) with
// one page, on the audit view benchmark's data; one server per page, so each profile holds one page.
// Prints each page's rate and the server's CPU time per request (profiler on), then the profile by
// origin, by function (self time) and by function including what it calls.
//
// Run: `npm run build && BENCH_AUDIT_EVENTS=100000 BENCH_AUDIT_DATA_DIR=/tmp/kl-audit npx tsx
// bench/profile-pages.ts [dashboard] [keys] [audit] [deep] [drawer]` (all five without arguments).
// BENCH_PROFILE_SECONDS (default 10); BENCH_APP_ROOT profiles another checkout's build;
// BENCH_PROFILE_DIR keeps the .cpuprofile files (DevTools and speedscope open them). The summaries before and after issue 30's page work are in
// docs/decisions/0042-pages-at-dashboard-speed.md.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { signAuditCursor } from "../app/audit/cursor.server.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { openAuditViewDatabase } from "./lib/audit-view-seed.ts";
import { formatInclusive } from "./lib/cpu-profile-inclusive.ts";
import { formatSummary, summariseProfile } from "./lib/cpu-profile.ts";
import { ensureBuild, processCpuMs, startProductionServer, stopChild } from "./lib/servers.ts";

const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 10);
/** The checkout whose build is profiled: this one, or BENCH_APP_ROOT (an earlier build kept aside). */
const root = process.env.BENCH_APP_ROOT ?? join(import.meta.dirname, "..");
const AUDIT = "/dashboard/organization-settings/audit-log";

ensureBuild();
const db = await openAuditViewDatabase();
const workDir = await mkdtemp(join(tmpdir(), "keyledger-profile-pages-"));
try {
  const { client, seeded: s } = db;
  const deepCursor = async () => {
    const secret = (await client.query("SELECT secret FROM server_secrets WHERE name = 'audit-cursor'")).rows[0]?.secret as
      Buffer | undefined;
    if (!secret) return null;
    const row = (
      await client.query(
        "SELECT created_at, id FROM audit_events WHERE organization_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1",
        [s.big, Math.floor(db.events / 4)],
      )
    ).rows[0] as { created_at: Date; id: string };
    return signAuditCursor(secret, s.big, {}, { createdAt: row.created_at, id: row.id, direction: "older" });
  };
  const pages: Record<string, () => Promise<string>> = {
    dashboard: async () => "/dashboard",
    keys: async () => "/dashboard/organization-settings/api-keys",
    audit: async () => AUDIT,
    deep: async () => `${AUDIT}?cursor=${await deepCursor()}`,
    drawer: async () => `${AUDIT}?event=${s.eventId}`,
  };
  const chosen = process.argv.slice(2).filter((name) => name in pages);
  for (const name of chosen.length ? chosen : Object.keys(pages)) {
    const profileDir = join(process.env.BENCH_PROFILE_DIR ?? workDir, name);
    const env = { DATABASE_URL: db.url, DATABASE_POOL_SIZE: "10", PORT: String(await freePort()) };
    const server = await startProductionServer(root, env, { nodeArgs: ["--cpu-prof", "--cpu-prof-dir", profileDir] });
    // The deep cursor is signed with the server's key, which its first audit page makes.
    await fetch(`${server.url}${AUDIT}`, { headers: { cookie: `session=${s.bigToken}` } }).then((r) => r.arrayBuffer());
    const path = await pages[name]!();
    const load = (duration: number) =>
      autocannon({ url: server.url + path, connections: 10, duration, headers: { cookie: `session=${s.bigToken}`, accept: "text/html" } });
    await load(2);
    const cpuBefore = processCpuMs(server.child.pid!);
    const result = await load(SECONDS);
    const cpu = processCpuMs(server.child.pid!) - cpuBefore;
    await stopChild(server.child);
    const [file] = (await readdir(profileDir)).filter((f) => f.endsWith(".cpuprofile"));
    const requests = result["2xx"] + result.non2xx;
    console.log(
      `\n## ${name}: ${path.slice(0, 80)}\n\n${result.requests.average.toFixed(0)} pages/s, p99 ${result.latency.p99} ms, ` +
        `${result["2xx"]} answered 2xx, ${result.non2xx} other; process CPU ${((cpu * 1000) / requests).toFixed(0)} µs per page (profiler on)\n`,
    );
    // The profile also covers the start and the warm-up; shares are what matter.
    const summary = summariseProfile(join(profileDir, file!));
    const warmup = Math.round(requests * (2 / SECONDS));
    console.log(formatSummary(summary, requests + warmup, 20));
    console.log(`\n${formatInclusive(join(profileDir, file!), summary.busyMs, requests + warmup, 30)}`);
    if (process.env.BENCH_PROFILE_DIR) console.log(`\nProfile: ${join(profileDir, file!)}`);
  }
} finally {
  await db.close();
  await rm(workDir, { recursive: true, force: true }).catch(() => {});
}
