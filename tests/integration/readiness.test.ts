// /readyz and /livez (docs/decisions/0037-health-readiness-and-drain.md): readiness needs every
// migration of the build applied (and remembers once it saw them), the worker running and no
// drain; liveness needs nothing. Through the real request edge over HTTP, on this file's database.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pool } from "~/db.server";
import { beginDraining, endStreams, resetLifecycleForTests, setWorkerRunning, whenStreamsMustEnd } from "~/lib/lifecycle.server";
import { buildMigrations, readiness, resetReadinessForTests } from "~/lib/readiness.server";
import { readMigrations } from "../../scripts/lib/migrate.ts";
import { startInProcessServer, type InProcessServer } from "../app-server";
import { queryOnce } from "../../scripts/lib/pg-client.ts";

let server: InProcessServer;

beforeAll(async () => {
  server = await startInProcessServer();
});

afterAll(async () => {
  await server.close();
});

afterEach(() => {
  resetLifecycleForTests();
  resetReadinessForTests();
});

/** The migrations' bookkeeping, as the migrator (the owner) writes it: the app's role only reads it. */
const asOwner = (sql: string, values: unknown[] = []) => queryOnce(process.env.DATABASE_URL!, sql, values);

/** Takes one migration's row away while `work` runs, then puts it back. */
async function withoutMigration(name: string, work: () => Promise<void>): Promise<void> {
  const { rows } = await pool().query(`SELECT * FROM "_prisma_migrations" WHERE migration_name = $1`, [name]);
  await asOwner(`DELETE FROM "_prisma_migrations" WHERE migration_name = $1`, [name]);
  try {
    await work();
  } finally {
    const row = rows[0] as Record<string, unknown>;
    const columns = Object.keys(row);
    await asOwner(
      `INSERT INTO "_prisma_migrations" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
      columns.map((c) => row[c]),
    );
  }
}

describe("readiness", () => {
  it("knows the build's migrations: exactly those in prisma/migrations", async () => {
    expect(buildMigrations()).toEqual((await readMigrations()).map((m) => m.name));
  });

  it("is ready with the database answering, every migration applied and the worker running", async () => {
    setWorkerRunning(true);
    expect(await readiness()).toEqual({ ready: true, failing: [] });
    const answer = await fetch(`${server.origin}/readyz`);
    expect([answer.status, answer.headers.get("cache-control"), await answer.json()]).toEqual([200, "no-store", { ok: true }]);
  });

  it("answers 503 with Retry-After naming the migrations while one of the build's is missing, and the worker when it is not running", async () => {
    const newest = buildMigrations().at(-1)!;
    await withoutMigration(newest, async () => {
      const answer = await fetch(`${server.origin}/readyz`);
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("5");
      expect(await answer.json()).toEqual({ ok: false, failing: ["migrations", "worker"] });
      // Liveness does not care.
      const live = await fetch(`${server.origin}/livez`);
      expect([live.status, await live.json()]).toEqual([200, { ok: true }]);
    });
  });

  it("counts a migration that started but never finished as missing", async () => {
    setWorkerRunning(true);
    const newest = buildMigrations().at(-1)!;
    await asOwner(`UPDATE "_prisma_migrations" SET finished_at = NULL WHERE migration_name = $1`, [newest]);
    try {
      expect(await readiness()).toEqual({ ready: false, failing: ["migrations"] });
    } finally {
      await asOwner(`UPDATE "_prisma_migrations" SET finished_at = now() WHERE migration_name = $1`, [newest]);
    }
  });

  it("remembers the migrations once it saw them all applied (they are never taken back)", async () => {
    setWorkerRunning(true);
    expect((await readiness()).ready).toBe(true);
    await withoutMigration(buildMigrations()[0]!, async () => {
      expect((await readiness()).ready).toBe(true);
    });
  });

  it("turns 503 when draining, and every answer from then on closes its connection", async () => {
    setWorkerRunning(true);
    beginDraining();
    const answer = await fetch(`${server.origin}/readyz`);
    expect([answer.status, await answer.json()]).toEqual([503, { ok: false, failing: ["draining"] }]);
    expect(answer.headers.get("connection")).toBe("close");
    const page = await fetch(`${server.origin}/login`);
    expect(page.headers.get("connection")).toBe("close");
  });

  it("answers GET and HEAD only, with no body for HEAD, whatever the Host", async () => {
    const head = await fetch(`${server.origin}/livez`, { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
    const post = await fetch(`${server.origin}/readyz`, { method: "POST" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
    expect((await fetch(`${server.origin}/livez?probe=kubelet`)).status).toBe(200);
  });

  it("keeps /healthz and /ping as they were", async () => {
    expect(await (await fetch(`${server.origin}/healthz`)).json()).toEqual({ ok: true });
    expect((await fetch(`${server.origin}/ping`)).status).toBe(200);
  });
});

describe("the end of long answers", () => {
  it("tells every waiting answer once, and one that asks afterwards at once", () => {
    const told: string[] = [];
    whenStreamsMustEnd(() => told.push("a"));
    const takeBack = whenStreamsMustEnd(() => told.push("b"));
    takeBack();
    expect(endStreams()).toBe(1);
    expect(endStreams()).toBe(0);
    whenStreamsMustEnd(() => told.push("c"));
    expect(told).toEqual(["a", "c"]);
  });
});
