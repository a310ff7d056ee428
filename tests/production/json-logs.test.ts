// Every line the production server writes on stdout is a JSON log line, from its start (with
// DATABASE_URL, the start's own lines too) through requests, refusals and database errors to its
// stop; the metrics token never appears in them. The database here closes every connection that
// stays idle for a second, so the pools' idle-connection errors are among the lines.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startProductionServer, type ProductionServer } from "./production-server.ts";
import { rawRequest } from "./raw-http.ts";

const TOKEN = "json-logs-metrics-token-4242";
const databaseUrl = process.env.DATABASE_URL!;
const database = new URL(databaseUrl).pathname.slice(1);
let server: ProductionServer;

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: inject("databaseAdminUrl") });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await admin(`ALTER DATABASE "${database}" SET idle_session_timeout = '1s'`);
  process.env.METRICS_TOKEN = TOKEN;
  server = await startProductionServer(databaseUrl);
});
afterAll(async () => {
  await server?.stop();
  delete process.env.METRICS_TOKEN;
  await admin(`ALTER DATABASE "${database}" RESET idle_session_timeout`);
});

const lines = () =>
  server
    .stdout()
    .split("\n")
    .filter((line) => line.trim() !== "");

describe("the production server's stdout", () => {
  it("is JSON lines only, through requests, refusals, database errors and the stop", async () => {
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.origin}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
    expect((await fetch(`${server.origin}/login`)).status).toBe(200);
    expect((await fetch(`${server.origin}/no-such-page`)).status).toBe(404);
    expect((await post("/rpc/apiKey/authenticate", '{"json":{"scopes":[]}}')).status).toBe(401);
    expect((await post("/rpc/organization/list", "{not json")).status).toBe(400);
    expect((await rawRequest(server.port, { method: "GET", target: "http://[::1" })).status).toBe(400);
    expect((await fetch(`${server.origin}/metrics`, { headers: { authorization: "Bearer wrong-token-here" } })).status).toBe(401);
    expect((await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);

    // The database ends the pools' idle connections after a second: each is told as a log line
    // (a warning when the reason is an outage, else an error).
    const deadline = Date.now() + 15_000;
    while (!/idle database connection (lost|failed)/.test(server.stdout()) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
    await server.stop();

    const parsed = lines().map((line) => {
      try {
        return JSON.parse(line) as { level: string; msg: string; status?: number };
      } catch {
        throw new Error(`Not a JSON line on stdout: ${line}`);
      }
    });
    const messages = parsed.map((line) => line.msg);
    expect(messages.some((msg) => msg.startsWith("KeyLedger is ready at "))).toBe(true);
    expect(messages.some((msg) => /^idle database connection (lost|failed)$/.test(msg))).toBe(true);
    expect(messages.some((msg) => msg.startsWith("SIGTERM received"))).toBe(true);
    expect(parsed.filter((line) => line.msg === "request").map((line) => line.status)).toEqual(
      expect.arrayContaining([200, 404, 401, 400]),
    );
    expect(server.output()).not.toContain(TOKEN);
  });
});
