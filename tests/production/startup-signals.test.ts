// A signal before the start is done, and a database that stops under a running server
// (docs/decisions/0037-health-readiness-and-drain.md): SIGTERM while the embedded database starts
// or while the demo data loads stops cleanly (exit 0, the database stopped, nothing half-written);
// with the database gone /readyz answers 503 naming it while /livez stays 200, and readiness
// returns with the database.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres.ts";
import { freePort } from "../../scripts/lib/free-port.ts";
import { readMigrations } from "../../scripts/lib/migrate.ts";
import { hasBuild, spawnBuiltApp } from "../built-app.ts";
import { startProductionServer } from "./production-server.ts";
import { signalServer } from "./server-process.ts";
import { eventually } from "../eventually";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "keyledger-startup-signal-"));
  dirs.push(dir);
  return dir;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

interface Started {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  dataDir: string;
  pgPort: number;
}

/** `npm run serve` on a fresh embedded database of its own (the demo's first start). */
async function startEmbeddedApp(): Promise<Started> {
  if (!hasBuild()) throw new Error("No build: run `npm run build` first (`npm test` does).");
  const dataDir = tempDir();
  const pgPort = await freePort();
  const { DATABASE_URL: _url, HOST: _host, ...rest } = process.env;
  const child = spawnBuiltApp(
    {
      ...rest,
      LOG_LEVEL: "info",
      APP_ORIGIN: "",
      PORT: String(await freePort()),
      EMBEDDED_POSTGRES_PORT: String(pgPort),
      EMBEDDED_POSTGRES_DIR: join(dataDir, "pg"),
    },
    { outboxDir: join(dataDir, "outbox"), stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited, dataDir, pgPort };
}

const until = (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 120_000) =>
  eventually(condition, what, { limitMs: timeoutMs, everyMs: 50 });

describe("a signal during start-up", () => {
  it("while the embedded database starts: the start finishes that step, stops the database, exits 0, applies nothing", async () => {
    const app = await startEmbeddedApp();
    await until(() => app.output().includes("Starting embedded PostgreSQL"), "the database's start");
    signalServer(app.child, "SIGTERM");
    expect(await app.exited, app.output()).toBe(0);
    const output = app.output();
    expect(output).toContain("SIGTERM received during start-up: stopping after the embedded database's start…");
    expect(output).toContain("Stopped before the start completed; nothing was left half-done.");
    expect(output).not.toContain("Applied migrations");
    expect(await accepts(app.pgPort)).toBe(false);
    expect(existsSync(join(app.dataDir, "pg", "postmaster.pid"))).toBe(false);
  }, 180_000);

  it("while the demo data loads: the story stops, what it wrote is removed, the database stops, exit 0", async () => {
    const app = await startEmbeddedApp();
    // The demo data starts loading right after the migrations are reported.
    await until(() => app.output().includes("Applied migrations:"), "the migrations");
    signalServer(app.child, "SIGTERM");
    expect(await app.exited, app.output()).toBe(0);
    const output = app.output();
    expect(output).toContain("SIGTERM received during start-up: stopping after the demo data…");
    expect(output).toContain("Stopped before the start completed; nothing was left half-done.");
    expect(output).not.toContain("Loaded the demo data");
    expect(output).not.toMatch(/"level":"(error|fatal)"/);
    expect(await accepts(app.pgPort)).toBe(false);

    // Nothing half-told: every migration finished, no demo account or organization left behind.
    const database = await startEmbeddedPostgres({ dataDir: join(app.dataDir, "pg"), port: app.pgPort, database: "keyledger" });
    const client = new pg.Client({ connectionString: database.url });
    try {
      await client.connect();
      const migrations = await client.query<{ name: string }>(
        `SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY 1`,
      );
      expect(migrations.rows.map((row) => row.name)).toEqual((await readMigrations()).map((m) => m.name));
      expect((await client.query("SELECT count(*)::int AS n FROM users")).rows[0]).toEqual({ n: 0 });
      expect((await client.query("SELECT count(*)::int AS n FROM organizations")).rows[0]).toEqual({ n: 0 });
    } finally {
      await client.end();
      await database.stop();
    }
  }, 240_000);
});

describe("readiness when the database stops", () => {
  it("answers 503 naming the database while /livez stays 200, and is ready again once the database is back", async () => {
    const dataDir = join(tempDir(), "pg");
    const port = await freePort();
    let database = await startEmbeddedPostgres({ dataDir, port, database: "keyledger" });
    process.env.SHUTDOWN_DRAIN_SECONDS = "0";
    const server = await startProductionServer(database.url);
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    try {
      await until(async () => (await fetch(`${server.origin}/readyz`)).status === 200, "readiness");
      await database.stop();
      const ready = await fetch(`${server.origin}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get("retry-after")).toBe("5");
      expect(await ready.json()).toEqual({ ok: false, failing: ["database"] });
      const live = await fetch(`${server.origin}/livez`);
      expect([live.status, await live.json()]).toEqual([200, { ok: true }]);
      const head = await fetch(`${server.origin}/livez`, { method: "HEAD" });
      expect([head.status, await head.text()]).toEqual([200, ""]);

      database = await startEmbeddedPostgres({ dataDir, port, database: "keyledger" });
      await until(async () => (await fetch(`${server.origin}/readyz`)).status === 200, "readiness after the database's return", 60_000);
    } finally {
      signalServer(server.child, "SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      await server.stop();
      await database.stop();
    }
  }, 240_000);
});

describe("an embedded data directory another PostgreSQL still holds (the app was killed, its database was not)", () => {
  it("fails with PostgreSQL's own reason, not an empty message", async () => {
    const dataDir = join(tempDir(), "pg");
    const first = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: "keyledger" });
    try {
      const second = startEmbeddedPostgres({ dataDir, port: await freePort(), database: "keyledger" });
      await expect(second).rejects.toThrow(/did not start: .*(postmaster\.pid|lock file)/);
    } finally {
      await first.stop();
    }
  }, 120_000);
});
