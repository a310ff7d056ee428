// Audited writes before and after a change to what recording an event costs, in one run on one
// PostgreSQL: two databases, "before" migrated up to the change's first migration (excluded),
// "after" with every migration. Each write is what an audited change costs the database: an
// interactive transaction (Prisma, over the pg adapter, as the app runs it) that locks the
// organization row, renames it and records `organization.settings_changed`. 20 actors across 4
// organizations, so some writes add an actor and most count up an existing day. Two changes:
// - "triggers" (decision 0049): before, the recorder of the previous release (Prisma's INSERT, the
//   three rollup triggers and the append-only trigger fire) as the login that owns the tables;
//   after, the real recorder (app/audit/record.server.ts, the event and its rollups in one
//   statement) as keyledger_app.
// - "stream order" (decision 0052): the same recorder as keyledger_app on both sides; after, each
//   event also stores its transaction's id (a column default) under one more index, which audit
//   streaming reads in commit order. Target: no slower (the stream adds no work to the write).
//
// `npx tsx bench/audited-writes.ts [triggers|stream-order]` (both without an argument);
// BENCH_WRITES_ROUNDS (15) pairs of rounds of BENCH_WRITES_PER_ROUND (200) writes per database, back
// to back; the figure is the median of the pairs' after/before ratios. Then the write statement
// alone, at the server (EXPLAIN ANALYZE).
import { randomUUID } from "node:crypto";
import { copyFile, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { v7 as uuidv7 } from "uuid";
import { auditCatalog } from "../app/audit/catalog.ts";
import { auditContentHash, recordAuditEvent } from "../app/audit/record.server.ts";
import { insertEventWithRollups } from "../app/audit/rollups.server.ts";
import { APP_ROLE, PRISMA_ADAPTER_OPTIONS } from "../app/db.server.ts";
import { PrismaClient } from "../app/generated/prisma/client.ts";
import { startEmbeddedPostgres } from "../scripts/lib/embedded-postgres.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { migrate, MIGRATIONS_DIR } from "../scripts/lib/migrate.ts";
import { TRIGGERS_DROPPED_BY } from "../app/audit/rollup-catch-up.server.ts";
import { median } from "./lib/stats.ts";

/** The migration that gives audit_events its transaction id (the stream order, decision 0052). */
const STREAM_ORDER_MIGRATION = "20261205000000";

const ROUNDS = Number(process.env.BENCH_WRITES_ROUNDS ?? 15);
const PER_ROUND = Number(process.env.BENCH_WRITES_PER_ROUND ?? 200);
const ORGANIZATIONS = 4;
const ACTORS = 20;

type Side = "before" | "after";

/** One change measured: where its migrations start, and how each side records. */
interface Comparison {
  name: string;
  /** The first migration of the change: "before" is migrated up to it, excluded. */
  firstMigration: string;
  /** The previous release's recorder (Prisma's INSERT, triggers, the owner login) on the "before" side. */
  beforeRecordsWithTriggers: boolean;
  describe: Record<Side, string>;
}

export const COMPARISONS = {
  triggers: {
    name: "triggers vs the recorder's one statement",
    firstMigration: TRIGGERS_DROPPED_BY,
    beforeRecordsWithTriggers: true,
    describe: {
      before: "before (triggers, Prisma INSERT, owner login)",
      after: "after (the recorder's one statement, keyledger_app)",
    },
  },
  "stream-order": {
    name: "without and with the stream order (transaction id and its index)",
    firstMigration: STREAM_ORDER_MIGRATION,
    beforeRecordsWithTriggers: false,
    describe: {
      before: "before (no transaction id, keyledger_app)",
      after: "after (transaction id and stream-order index, keyledger_app)",
    },
  },
} satisfies Record<string, Comparison>;
type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
type Details = { name: { from: string; to: string } };

/** The previous release's recorder, for this action: the same checks, then Prisma's INSERT (the
 * triggers did the rest). */
async function recordBefore(tx: Tx, organizationId: string, actorId: string, details: Details) {
  const action = "organization.settings_changed";
  const parsed = auditCatalog[action].details.safeParse(details);
  if (!parsed.success) throw new Error("bad details");
  const actor = { kind: "user", id: actorId };
  const target = { type: "organization", id: organizationId };
  await tx.auditEvent.create({
    data: {
      id: uuidv7(),
      organizationId,
      action,
      actorKind: "user",
      actorId,
      targetType: target.type,
      targetId: target.id,
      details: parsed.data as object,
      idempotencyKey: null,
      correlationId: null,
      contentHash: auditContentHash({ action, actor, target, details: parsed.data as object }),
    },
    select: { id: true },
  });
}

async function auditedWrite(withTriggers: boolean, prisma: PrismaClient, organizationId: string, actorId: string, n: number) {
  await prisma.$transaction(async (tx) => {
    // The organization row lock every change takes first (app/access), then the change.
    const [current] = await tx.$queryRaw<{ name: string }[]>`SELECT name FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`;
    const to = `Organization ${n}`;
    await tx.$executeRaw`UPDATE organizations SET name = ${to} WHERE id = ${organizationId}::uuid`;
    const details = { name: { from: current!.name, to } };
    if (withTriggers) await recordBefore(tx, organizationId, actorId, details);
    else
      await recordAuditEvent(tx, {
        organizationId,
        action: "organization.settings_changed",
        actor: { kind: "user", id: actorId },
        target: { type: "organization", id: organizationId },
        details,
      });
  });
}

/** The migrations of this checkout up to (not including) `firstMigration`. */
async function migrationsBefore(firstMigration: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "keyledger-bench-migrations-"));
  for (const entry of await readdir(MIGRATIONS_DIR, { withFileTypes: true })) {
    const name = entry.name;
    if (!entry.isDirectory() || name >= firstMigration) continue;
    await mkdir(join(dir, name));
    await copyFile(join(MIGRATIONS_DIR, name, "migration.sql"), join(dir, name, "migration.sql"));
  }
  return dir;
}

async function seed(url: string): Promise<{ organizations: string[]; actors: string[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const organizations = Array.from({ length: ORGANIZATIONS }, () => randomUUID());
    const actors = Array.from({ length: ACTORS }, () => randomUUID());
    await client.query(
      `INSERT INTO organizations (id, name, slug) SELECT id, 'Organization', 'org-' || n FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, n)`,
      [organizations],
    );
    await client.query(
      `INSERT INTO users (id, email, name, password_hash) SELECT id, 'u' || n || '@bench.test', 'User ' || n, 'x' FROM unnest($1::uuid[]) WITH ORDINALITY AS u(id, n)`,
      [actors],
    );
    return { organizations, actors };
  } finally {
    await client.end();
  }
}

const STATEMENT_SAMPLES = 300;

interface StatementTime {
  planning: number;
  execution: number;
  triggers: number;
}

/**
 * What the write statement alone costs the server, from EXPLAIN ANALYZE (rolled back): before, the
 * previous release's INSERT with its triggers' time; after, the recorder's statement. A steadier
 * figure than the transactions' times on a shared machine, and it shows where the time goes.
 */
async function statementTimes(
  databases: Record<Side, { url: string; organizationId: string }>,
  beforeRecordsWithTriggers: boolean,
): Promise<Record<Side, StatementTime>> {
  const result = {} as Record<Side, StatementTime>;
  for (const side of ["before", "after"] as Side[]) {
    const { url, organizationId } = databases[side];
    const recorder = side === "after" || !beforeRecordsWithTriggers;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    if (recorder) await client.query(`SET ROLE ${APP_ROLE}`);
    const samples: StatementTime[] = [];
    try {
      for (let i = 0; i < STATEMENT_SAMPLES + 50; i++) {
        const row = {
          id: uuidv7(),
          organizationId,
          action: "organization.settings_changed",
          actorKind: "user",
          actorId: `actor-${i % ACTORS}`,
          targetType: "organization",
          targetId: organizationId,
          details: { name: { from: "a", to: "b" } },
          idempotencyKey: null,
          correlationId: null,
          contentHash: "bench",
        };
        const sql = recorder ? insertEventWithRollups(row) : null;
        const text =
          sql?.text ??
          `INSERT INTO audit_events (id, organization_id, action, actor_kind, actor_id, target_type, target_id, details, idempotency_key,
                                     correlation_id, content_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`;
        const values = sql?.values ?? [
          row.id,
          row.organizationId,
          row.action,
          row.actorKind,
          row.actorId,
          row.targetType,
          row.targetId,
          JSON.stringify(row.details),
          row.idempotencyKey,
          row.correlationId,
          row.contentHash,
        ];
        // As each release sends it: the previous one's INSERT unnamed (planned every time), the
        // recorder's statement prepared once per connection.
        if (recorder && i === 0) await client.query(`PREPARE record_event AS ${text}`);
        // EXECUTE takes no bind parameters: its arguments are written as literals.
        const literal = (v: unknown) => (v === null ? "NULL" : client.escapeLiteral(String(v)));
        const explained = recorder ? `EXECUTE record_event(${values.map(literal).join(", ")})` : text;
        await client.query("BEGIN");
        const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${explained}`, recorder ? [] : values);
        await client.query("ROLLBACK");
        const plan = rows[0]["QUERY PLAN"][0] as { "Planning Time": number; "Execution Time": number; Triggers?: { Time: number }[] };
        if (i < 50) continue;
        samples.push({
          planning: plan["Planning Time"],
          execution: plan["Execution Time"],
          triggers: (plan.Triggers ?? []).reduce((sum, t) => sum + t.Time, 0),
        });
      }
    } finally {
      await client.end();
    }
    result[side] = {
      planning: median(samples.map((s) => s.planning)),
      execution: median(samples.map((s) => s.execution)),
      triggers: median(samples.map((s) => s.triggers)),
    };
  }
  return result;
}

/** Every comparison (`npm run bench`), or the one named on the command line. */
export async function runAuditedWritesBench(only?: keyof typeof COMPARISONS): Promise<{ passed: boolean; report: string }> {
  const names = only ? [only] : (Object.keys(COMPARISONS) as (keyof typeof COMPARISONS)[]);
  const results = [];
  for (const name of names) results.push(await runComparison(COMPARISONS[name]));
  return { passed: results.every((r) => r.passed), report: results.map((r) => r.report).join("\n\n") };
}

async function runComparison(comparison: Comparison): Promise<{ passed: boolean; report: string }> {
  const root = await mkdtemp(join(tmpdir(), "keyledger-bench-writes-"));
  await mkdir(join(root, "data"));
  const database = await startEmbeddedPostgres({ dataDir: join(root, "data"), port: await freePort(), database: "after" });
  const beforeDir = await migrationsBefore(comparison.firstMigration);
  const withTriggers: Record<Side, boolean> = { before: comparison.beforeRecordsWithTriggers, after: false };
  const clients: PrismaClient[] = [];
  const pools: pg.Pool[] = [];
  try {
    const afterUrl = database.url;
    const beforeUrl = afterUrl.replace(/\/after$/, "/before");
    const admin = new pg.Client({ connectionString: afterUrl });
    await admin.connect();
    await admin.query("CREATE DATABASE before");
    await admin.end();
    await migrate(afterUrl);
    await migrate(beforeUrl, beforeDir);
    const sides: Record<Side, { prisma: PrismaClient; seeded: Awaited<ReturnType<typeof seed>> }> = {
      before: { prisma: client(beforeUrl, !withTriggers.before), seeded: await seed(beforeUrl) },
      after: { prisma: client(afterUrl, true), seeded: await seed(afterUrl) },
    };
    function client(url: string, asAppRole: boolean): PrismaClient {
      const pool = new pg.Pool({
        connectionString: url,
        max: 2,
        ...(asAppRole ? { onConnect: async (c: pg.ClientBase) => void (await c.query(`SET ROLE ${APP_ROLE}`)) } : {}),
      });
      pool.on("error", () => {}); // the database stopping at the end
      pools.push(pool);
      // The app's adapter options (the recorder's statement prepared) on the new side; the
      // previous release's Prisma sent every statement unnamed.
      const created = new PrismaClient({ adapter: new PrismaPg(pool, asAppRole ? PRISMA_ADAPTER_OPTIONS : undefined) });
      clients.push(created);
      return created;
    }
    const perWrite: Record<Side, number[]> = { before: [], after: [] };
    const ratios: number[] = [];
    let n = 0;
    // A warm-up pair, then the measured pairs, each side going first in every other pair; each
    // pair's ratio is taken, so the machine's load, which drifts over the run, cancels out.
    for (let round = -1; round < ROUNDS; round++) {
      const pair: Partial<Record<Side, number>> = {};
      for (const side of (round % 2 === 0 ? ["before", "after"] : ["after", "before"]) as Side[]) {
        const { prisma, seeded } = sides[side];
        const started = performance.now();
        for (let i = 0; i < PER_ROUND; i++, n++) {
          await auditedWrite(withTriggers[side], prisma, seeded.organizations[n % ORGANIZATIONS]!, seeded.actors[(n * 7) % ACTORS]!, n);
        }
        pair[side] = (performance.now() - started) / PER_ROUND;
      }
      if (round < 0) continue;
      perWrite.before.push(pair.before!);
      perWrite.after.push(pair.after!);
      ratios.push(pair.after! / pair.before!);
    }
    const ratio = median(ratios);
    const statement = await statementTimes(
      {
        before: { url: beforeUrl, organizationId: sides.before.seeded.organizations[0]! },
        after: { url: afterUrl, organizationId: sides.after.seeded.organizations[0]! },
      },
      comparison.beforeRecordsWithTriggers,
    );
    const ms = (values: number[]) => values.map((v) => v.toFixed(2)).join(", ");
    const report = [
      `audited write (lock, rename, record), ${comparison.name}, ${ROUNDS} pairs of ${PER_ROUND} writes per side:`,
      `  ${comparison.describe.before}: median ${median(perWrite.before).toFixed(3)} ms per write   rounds ${ms(perWrite.before)}`,
      `  ${comparison.describe.after}: median ${median(perWrite.after).toFixed(3)} ms per write   rounds ${ms(perWrite.after)}`,
      `  after / before, median of the pairs' ratios: ${ratio.toFixed(2)} (target ≤ 1.05; pairs ${ms(ratios)})`,
      `the write statement alone at the server (EXPLAIN ANALYZE, median of ${STATEMENT_SAMPLES}), planning + execution:`,
      `  before: ${statement.before.planning.toFixed(3)} + ${statement.before.execution.toFixed(3)} ms (triggers ${statement.before.triggers.toFixed(3)} of it)`,
      `  after: ${statement.after.planning.toFixed(3)} + ${statement.after.execution.toFixed(3)} ms`,
    ].join("\n");
    return { passed: ratio <= 1.05, report };
  } finally {
    for (const c of clients) await c.$disconnect().catch(() => {});
    for (const p of pools) await p.end().catch(() => {});
    await database.stop().catch(() => {});
    await rm(root, { recursive: true, force: true });
    await rm(beforeDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const only = process.argv[2];
  if (only !== undefined && !Object.hasOwn(COMPARISONS, only)) {
    console.error(`Unknown comparison ${only}: one of ${Object.keys(COMPARISONS).join(", ")}.`);
    process.exit(2);
  }
  const { passed, report } = await runAuditedWritesBench(only as keyof typeof COMPARISONS | undefined);
  console.log(`\n${report}\n\n${passed ? "All targets met." : "Some targets missed."}`);
  // embedded-postgres' exit hook would reset the exit code (docs/decisions/0040).
  process.exit(passed ? 0 : 1);
}
