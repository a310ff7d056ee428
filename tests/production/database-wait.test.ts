// The start with a database that refuses connections, or accepts them and does not answer
// (docs/decisions/0036-database-outages-answer-503.md, 0070): it waits, says every few seconds what
// it waits for and why (host:port, never the password), and starts once the database is up; with
// none after DATABASE_WAIT_SECONDS it exits 1 with a clear message.
import type { ChildProcess } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { hasBuild, spawnBuiltApp } from "../built-app.ts";
import { startCrashablePostgres, type CrashablePostgres } from "./crashable-postgres.ts";

let db: CrashablePostgres;
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (!hasBuild()) throw new Error("No build: run `npm run build` first (`npm test` does).");
  db = await startCrashablePostgres();
  await db.crash();
}, 120_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await db?.stop();
}, 60_000);

async function start(extra: Record<string, string>) {
  const port = await freePort();
  let output = "";
  const child = spawnBuiltApp(
    { ...process.env, DATABASE_URL: db.url, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "info", APP_ORIGIN: "", ...extra },
    { outboxDir: join(tmpdir(), `keyledger-outbox-${port}`), stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const until = async (done: () => boolean, what: string, limitMs = 60_000) => {
    const deadline = Date.now() + limitMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`${what} did not happen in time:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return { port, child, exited, output: () => output, until };
}

describe("the start with the database down", () => {
  it("exits 1 with a clear message once DATABASE_WAIT_SECONDS have passed", async () => {
    const app = await start({ DATABASE_WAIT_SECONDS: "2" });
    expect(await app.exited).toBe(1);
    expect(app.output()).toContain(`Waiting for the database at 127.0.0.1:${db.port}: connection refused (ECONNREFUSED)`);
    expect(app.output()).toContain(`The database at 127.0.0.1:${db.port} did not accept connections within 2 s`);
    expect(app.output()).toContain("DATABASE_WAIT_SECONDS");
    expect(app.output()).not.toContain("keyledger_app:keyledger_app");
  }, 60_000);

  it("waits and says why, then starts once the database is up", async () => {
    const app = await start({ DATABASE_WAIT_SECONDS: "90" });
    await app.until(() => app.output().includes("Waiting for the database"), "the first waiting line");
    // Still waiting, still saying so: a line every few seconds, the process alive, nothing listening.
    await app.until(() => app.output().split("Waiting for the database").length > 2, "a second waiting line", 20_000);
    expect(app.child.exitCode).toBeNull();
    expect(app.output()).toContain(`127.0.0.1:${db.port}: connection refused (ECONNREFUSED)`);
    expect(app.output()).not.toContain("keyledger_app:keyledger_app");
    // With DATABASE_URL (a deployment) these are JSON log lines like every other line of stdout.
    const waiting = app
      .output()
      .split("\n")
      .filter((line) => line.includes("Waiting for the database"));
    for (const line of waiting) expect(JSON.parse(line)).toMatchObject({ level: "info", msg: expect.stringContaining("Waiting for") });
    await expect(fetch(`http://127.0.0.1:${app.port}/healthz`)).rejects.toThrow();
    await db.restart();
    await app.until(() => app.output().includes("KeyLedger is ready"), "the start");
    expect(app.output()).toMatch(new RegExp(`The database at 127\\.0\\.0\\.1:${db.port} is reachable \\(after [\\d.]+ s\\)`));
    expect((await fetch(`http://127.0.0.1:${app.port}/healthz`)).status).toBe(200);
    app.child.kill("SIGTERM");
    await app.exited;
  }, 120_000);

  it("waits out a database that accepts connections and does not answer (frozen), then starts", async () => {
    // The database is up again after the test above; every PostgreSQL process is stopped now.
    db.freeze();
    try {
      const app = await start({ DATABASE_WAIT_SECONDS: "90" });
      await app.until(() => app.output().includes("Waiting for the database"), "the first waiting line", 30_000);
      expect(app.output()).toContain(`Waiting for the database at 127.0.0.1:${db.port}: no answer in time (timeout expired)`);
      expect(app.output()).not.toContain("Check DATABASE_URL");
      expect(app.child.exitCode).toBeNull();
      db.thaw();
      await app.until(() => app.output().includes("KeyLedger is ready"), "the start");
      expect((await fetch(`http://127.0.0.1:${app.port}/healthz`)).status).toBe(200);
      app.child.kill("SIGTERM");
      await app.exited;
    } finally {
      db.thaw();
    }
  }, 120_000);
});
