// The audit digests' costs (issue 34; docs/decisions/0061-audit-digests.md), on one embedded
// PostgreSQL, in one run:
// (a) throughput (after a warm-up organization of 20,000 events): BENCH_DIGEST_EVENTS (200,000) events of one organization sealed by the real
//     writer (app/audit-integrity/seal.server.ts: the read in stream order, each event's canonical
//     JSON and SHA-256, the entries, the Ed25519 signature, the insert), 50,000 to a digest. Target
//     ≥ 100,000 events/s. Baseline in the same run: the writer's read alone (the same statement over
//     the same rows), so the ratio says what hashing and signing add to reading.
// (b) audited writes with the digest job running vs not: BENCH_DIGEST_ROUNDS (11) pairs of rounds of
//     BENCH_DIGEST_WRITES (200) audited changes (an interactive transaction: lock the organization,
//     rename it, record the event through the app's recorder), in the same process as the job, as in
//     the app. "On", a sealer seals the organization every second (AUDIT_DIGEST_INTERVAL=1, the
//     shortest the setting allows: 3,600 times the default's work). The figure is the median of the pairs' on/off ratios. Target ≤ 1.05.
//
// `npx tsx bench/audit-digests.ts`
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startEmbeddedPostgres } from "../scripts/lib/embedded-postgres.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { migrate } from "../scripts/lib/migrate.ts";
import { withClient } from "../scripts/lib/pg-client.ts";
import { median } from "./lib/stats.ts";

const EVENTS = Number(process.env.BENCH_DIGEST_EVENTS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_DIGEST_ROUNDS ?? 11);
const WRITES = Number(process.env.BENCH_DIGEST_WRITES ?? 200);
/** The shortest AUDIT_DIGEST_INTERVAL allowed: 3,600 times the default's sealing. */
const SEAL_EVERY_MS = 1_000;

/** `count` events of `organizationId` in one statement, as the owner: details like a real rename. */
async function seedEvents(url: string, organizationId: string, userId: string, count: number) {
  await withClient(url, async (client) => {
    await client.query(`INSERT INTO organizations (id, name, slug) VALUES ($1::uuid, 'Bench', $2)`, [
      organizationId,
      `bench-${organizationId.slice(0, 8)}`,
    ]);
    await client.query(`INSERT INTO users (id, email, name, password_hash) VALUES ($1::uuid, $2, 'Bench', 'x')`, [
      userId,
      `${userId}@bench.test`,
    ]);
    await client.query(
      `INSERT INTO audit_events (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
       SELECT gen_random_uuid(), $1::uuid, now() - make_interval(secs => $3::int - n), 'organization.settings_changed', 'user', $2,
              'organization', $1::uuid::text, jsonb_build_object('name', jsonb_build_object('from', 'Name ' || n, 'to', 'Name ' || (n + 1))), 'bench'
       FROM generate_series(1, $3::int) AS n`,
      [organizationId, userId, count],
    );
    // As autovacuum would soon: the planner then knows the table's size and reads the stream order index.
    await client.query("VACUUM ANALYZE audit_events");
  });
}

export async function runAuditDigestsBench(): Promise<{ passed: boolean; report: string }> {
  const root = await mkdtemp(join(tmpdir(), "keyledger-bench-digests-"));
  await mkdir(join(root, "data"));
  const database = await startEmbeddedPostgres({ dataDir: join(root, "data"), port: await freePort(), database: "digests" });
  try {
    await migrate(database.url);
    // The app's modules read their configuration on first use: this database, a signing key.
    process.env.DATABASE_URL = database.url;
    process.env.AUDIT_SIGNING_KEY = String(generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }));
    process.env.LOG_LEVEL ??= "silent";
    const { pool, prisma, disconnectDb } = await import("../app/db.server.ts");
    const { sealOrganization, SEALED_EVENTS_SQL, START_POSITION } = await import("../app/audit-integrity/seal.server.ts");
    const { currentSigningKey } = await import("../app/audit-integrity/signing-keys.ts");
    const { recordAuditEvent } = await import("../app/audit/record.server.ts");
    const key = currentSigningKey()!;
    try {
      // (a) Throughput. First a warm-up organization of 20,000 events, sealed and left: the job
      // runs in a long-lived process whose hashing code V8 has long compiled, not in a cold one.
      const warmUp = randomUUID();
      await seedEvents(database.url, warmUp, randomUUID(), 20_000);
      await sealOrganization(warmUp, key);
      const big = randomUUID();
      await seedEvents(database.url, big, randomUUID(), EVENTS);
      const readStarted = performance.now();
      let read = 0;
      let after = START_POSITION;
      const { rows: horizonRows } = await pool().query<{ h: string }>("SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS h");
      for (;;) {
        const { rows } = await pool().query<string[]>({
          text: SEALED_EVENTS_SQL,
          values: [big, after.transactionId, after.eventId, horizonRows[0]!.h, 50_000],
          rowMode: "array",
        });
        read += rows.length;
        if (rows.length < 50_000) break;
        const last = rows[rows.length - 1]!;
        after = { transactionId: last[8]!, eventId: last[0]! };
      }
      const readSeconds = (performance.now() - readStarted) / 1000;
      const sealStarted = performance.now();
      const sealed = await sealOrganization(big, key);
      const sealSeconds = (performance.now() - sealStarted) / 1000;
      const perSecond = sealed.events / sealSeconds;

      // (b) Audited writes with the job running vs not.
      const small = randomUUID();
      const actor = randomUUID();
      await seedEvents(database.url, small, actor, 1);
      let n = 0;
      const write = () =>
        prisma.$transaction(async (tx) => {
          const [current] = await tx.$queryRaw<{ name: string }[]>`SELECT name FROM organizations WHERE id = ${small}::uuid FOR UPDATE`;
          const to = `Organization ${n++}`;
          await tx.$executeRaw`UPDATE organizations SET name = ${to} WHERE id = ${small}::uuid`;
          await recordAuditEvent(tx, {
            organizationId: small,
            action: "organization.settings_changed",
            actor: { kind: "user", id: actor },
            target: { type: "organization", id: small },
            details: { name: { from: current!.name, to } },
          });
        });
      const round = async (withJob: boolean) => {
        let sealing = true;
        let digests = 0;
        const sealer = (async () => {
          while (withJob && sealing) {
            digests += (await sealOrganization(small, key)).digests;
            await new Promise((resolve) => setTimeout(resolve, SEAL_EVERY_MS));
          }
        })();
        const started = performance.now();
        for (let i = 0; i < WRITES; i++) await write();
        const ms = (performance.now() - started) / WRITES;
        sealing = false;
        await sealer;
        return { ms, digests };
      };
      const off: number[] = [];
      const on: number[] = [];
      const ratios: number[] = [];
      let digestsDuringWrites = 0;
      for (let r = -1; r < ROUNDS; r++) {
        const pair: { on?: number; off?: number } = {};
        for (const withJob of r % 2 === 0 ? [false, true] : [true, false]) {
          const result = await round(withJob);
          pair[withJob ? "on" : "off"] = result.ms;
          if (r >= 0) digestsDuringWrites += result.digests;
        }
        if (r < 0) continue;
        off.push(pair.off!);
        on.push(pair.on!);
        ratios.push(pair.on! / pair.off!);
      }
      const ratio = median(ratios);
      const ms = (values: number[]) => values.map((v) => v.toFixed(2)).join(", ");
      const report = [
        `(a) sealing ${sealed.events.toLocaleString("en")} events of one organization (${sealed.digests} digests of at most 50,000):`,
        `  read alone (the writer's statement, same rows): ${readSeconds.toFixed(2)} s, ${Math.round(read / readSeconds).toLocaleString("en")} events/s`,
        `  sealed (read, canonical JSON, SHA-256, entries, Ed25519, insert): ${sealSeconds.toFixed(2)} s, ${Math.round(perSecond).toLocaleString("en")} events/s (target ≥ 100,000)`,
        `  sealing / reading time: ${(sealSeconds / readSeconds).toFixed(2)}`,
        `(b) audited writes (lock, rename, record), ${ROUNDS} pairs of ${WRITES} writes, the digest job off and on (sealing every ${SEAL_EVERY_MS} ms, ${digestsDuringWrites} digests written during the "on" rounds):`,
        `  off: median ${median(off).toFixed(3)} ms per write   rounds ${ms(off)}`,
        `  on:  median ${median(on).toFixed(3)} ms per write   rounds ${ms(on)}`,
        `  on / off, median of the pairs' ratios: ${ratio.toFixed(2)} (target ≤ 1.05; pairs ${ms(ratios)})`,
      ].join("\n");
      return { passed: perSecond >= 100_000 && ratio <= 1.05, report };
    } finally {
      await disconnectDb().catch(() => {});
    }
  } finally {
    await database.stop().catch(() => {});
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { passed, report } = await runAuditDigestsBench();
  console.log(`\n${report}\n\n${passed ? "All targets met." : "Some targets missed."}`);
  // embedded-postgres' exit hook would reset the exit code (docs/decisions/0040).
  process.exit(passed ? 0 : 1);
}
