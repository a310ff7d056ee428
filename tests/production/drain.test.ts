// SIGTERM on the production server while answers are in flight (docs/decisions/0037-health-readiness-
// and-drain.md): /readyz turns 503 at once while /livez stays 200, keep-alive clients are told to
// close, the listener closes after the drain delay (new connections refused), answers in flight
// finish whole, an export that outlives the grace period ends with its interruption line, a second
// SIGTERM only logs, and the process exits 0. Each step waits for the server's own log line, never
// for a guessed time.
import { connect, type Socket } from "node:net";
import { signalServer } from "./server-process.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/auth/session.server";
import { recountRollups } from "~/audit/rollups.server";
import { pool } from "~/db.server";
import { createOrganizationWith, createUser } from "../factories";
import { startProductionServer, type ProductionServer } from "./production-server.ts";
import { startSlowDownload, type SlowDownload } from "./slow-download.ts";
import { eventually } from "../eventually";

/** Enough rows that the file (tens of MB) cannot hide in socket buffers while its client waits. */
const EVENTS = 200_000;
const DRAIN_SECONDS = 4;
const GRACE_SECONDS = 20;
const INTERRUPTED_CSV_LINE = "# ERROR: The server shut down before the export finished. This file is incomplete: export again.";

let server: ProductionServer;
let organizationId = "";
let cookie = "";

beforeAll(async () => {
  const owner = await createUser();
  organizationId = (await createOrganizationWith([{ userId: owner.id, role: "owner" }], { planId: "enterprise" })).id;
  cookie = `session=${(await createSession(owner.id, { twoFactorVerified: false, activeOrganizationId: organizationId })).token}`;
  await pool().query(
    `INSERT INTO audit_events (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
     SELECT gen_random_uuid(), $1::uuid, timestamptz '2025-01-01' + (i * interval '1 second'), 'api_key.issued', 'user', $2,
            'organization', $1, jsonb_build_object('n', i, 'note', repeat('x', 40)), 'x'
     FROM generate_series(1, $3::int) AS i`,
    [organizationId, owner.id, EVENTS],
  );
  await recountRollups(pool(), [organizationId]);
  process.env.SHUTDOWN_DRAIN_SECONDS = String(DRAIN_SECONDS);
  process.env.SHUTDOWN_GRACE_SECONDS = String(GRACE_SECONDS);
  server = await startProductionServer(process.env.DATABASE_URL!);
  // Ready once the worker runs (it starts right after the listener opens).
  await until(async () => (await fetch(`${server.origin}/readyz`)).status === 200);
}, 180_000);

afterAll(async () => {
  if (process.env.DRAIN_DEBUG) console.log(server?.output());
  await server?.stop();
});

const until = (condition: () => Promise<boolean> | boolean, what = "condition", timeoutMs = 60_000) =>
  eventually(condition, what, { limitMs: timeoutMs, everyMs: 50 });

const logged = (text: string) => until(() => server.output().includes(text), `the log line "${text}"`);

/** One request on an open keep-alive socket; resolves with the answer's head once it has all come. */
function askOn(socket: Socket, path: string): Promise<string> {
  return new Promise((resolve) => {
    let received = "";
    const onData = (chunk: Buffer) => {
      received += chunk.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      const length = Number(/content-length: (\d+)/i.exec(received)?.[1] ?? -1);
      if (end !== -1 && received.length >= end + 4 + length) {
        socket.off("data", onData);
        resolve(received.slice(0, end));
      }
    };
    socket.on("data", onData);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}

/** Whether a new TCP connection to the server's port is refused (a fresh socket: fetch might
 * reuse a pooled one). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: Error & { code?: string }) => resolve(error.code === "ECONNREFUSED"));
  });
}

const exportUrl = () => `${server.origin}/api/organizations/${organizationId}/audit-log/export?format=csv`;
const exitOf = () =>
  new Promise<number | null>((resolve) =>
    server.child.exitCode !== null ? resolve(server.child.exitCode) : server.child.once("exit", (code) => resolve(code)),
  );

describe("SIGTERM with answers in flight", () => {
  it("drains: readiness first, then the listener, then the answers, the late export with its error line, then exit 0", async () => {
    const headers = { Cookie: cookie, Origin: server.origin, "Sec-Fetch-Site": "same-origin" };
    // In flight before the signal: two exports whose clients take nothing yet, and a large page.
    const finishing: SlowDownload = await startSlowDownload(exportUrl(), headers);
    const late: SlowDownload = await startSlowDownload(exportUrl(), headers);
    const page: SlowDownload = await startSlowDownload(`${server.origin}/dashboard/organization-settings/audit-log?perPage=100`, headers);
    expect([finishing.status, late.status, page.status]).toEqual([200, 200, 200]);
    const keepAlive = connect(server.port, "127.0.0.1");
    expect(await askOn(keepAlive, "/livez")).not.toMatch(/connection: close/i);

    const exited = exitOf();
    const signalledAt = Date.now();
    signalServer(server.child, "SIGTERM");
    await logged("draining: /readyz answers 503");

    // During the drain delay: not ready, still alive, still answering, and keep-alive clients told to go.
    const ready = await fetch(`${server.origin}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get("retry-after")).toBe("5");
    // The worker stops at once too (its jobs wait in the database for another instance).
    expect(((await ready.json()) as { failing: string[] }).failing).toContain("draining");
    const live = await fetch(`${server.origin}/livez`);
    expect([live.status, await live.json()]).toEqual([200, { ok: true }]);
    expect(await askOn(keepAlive, "/livez")).toMatch(/connection: close/i);

    // A second SIGTERM changes nothing but a log line.
    signalServer(server.child, "SIGTERM");
    await logged("SIGTERM received again: already stopping");

    await logged("listener closed: requests in flight may finish");
    expect(await refused(server.port)).toBe(true);

    // The page and the first export, read now, arrive whole.
    const pageBody = await page.readAll();
    expect(pageBody.complete).toBe(true);
    expect(pageBody.body.toString("utf8").trimEnd()).toMatch(/<\/html>$/);
    const file = await finishing.readAll();
    expect(file.complete).toBe(true);
    const lines = file.body.toString("utf8").split("\r\n");
    expect(lines.at(-1)).toBe("");
    expect(lines.length - 2).toBe(EVENTS);
    expect(lines.at(-2)).toMatch(/^[0-9a-f-]{36},2025-01-01T00:00:01\.000Z,api_key\.issued,/);

    // The second export's client waited past the grace period: its file ends with the error line.
    await logged("grace period over");
    const cut = await late.readAll();
    expect(cut.complete).toBe(true);
    const cutLines = cut.body.toString("utf8").split("\r\n");
    expect(cutLines.at(-1)).toBe("");
    expect(cutLines.at(-2)).toBe(INTERRUPTED_CSV_LINE);
    expect(cutLines[0]).toMatch(/^id,createdAt,action,/);
    // Every line before it is a whole event, and not all of them came.
    expect(cutLines.slice(1, -2).every((line) => /^[0-9a-f-]{36},\d{4}-.*,"?\{/.test(line))).toBe(true);
    expect(cutLines.length - 3).toBeLessThan(EVENTS);

    expect(await exited).toBe(0);
    // Drain, grace, the last bytes and the worker's stop are each bounded: well inside this.
    expect(Date.now() - signalledAt).toBeLessThan((DRAIN_SECONDS + GRACE_SECONDS + 30) * 1000);
    const output = server.output();
    expect(output.match(/SIGTERM received, shutting down…/g)).toHaveLength(1);
    expect(output).toMatch(/"msg":"stopped"/);
    expect(output).not.toMatch(/"level":"(error|fatal)"/);
  }, 120_000);
});

describe("an impatient Ctrl-C", () => {
  it("a second SIGINT cuts the drain delay and the grace period short, and the process still stops cleanly with 0", async () => {
    process.env.SHUTDOWN_DRAIN_SECONDS = "600";
    process.env.SHUTDOWN_GRACE_SECONDS = "600";
    const patient = await startProductionServer(process.env.DATABASE_URL!);
    const exited = new Promise<number | null>((resolve) => patient.child.once("exit", (code) => resolve(code)));
    signalServer(patient.child, "SIGINT");
    await until(() => patient.output().includes("draining: /readyz answers 503"), "draining");
    signalServer(patient.child, "SIGINT");
    // Ten minutes of drain delay would outlast this test by far.
    expect(await exited).toBe(0);
    expect(patient.output()).toContain("SIGINT received again: stopping without waiting any longer");
    expect(patient.output()).toMatch(/"msg":"stopped"/);
  }, 60_000);
});
