// /metrics behind METRICS_TOKEN, against the built app behind the real request edge: who may read
// it (the right Bearer token only; 401 with WWW-Authenticate for a missing, wrong, empty,
// malformed or oversized one, in the caller's language; 405 for other methods), and what it says:
// requests by route family and status class (never a path or an id), authenticate outcomes,
// rate-limit refusals, the pools, the job queue (absent, with keyledger_job_queue_up 0, while the
// database refuses the scrape's connection; the scrape itself still answers 200).
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { generateSecret } from "~/api-keys/secret.server";
import { prisma } from "~/db.server";
import { env } from "~/env.server";
import { enqueueJob } from "~/jobs/queue.server";
import { consume } from "~/lib/rate-limit.server";
import { memberOfNewOrganization } from "../api-key-factories";
import { startInProcessServer, type InProcessServer } from "../app-server";
import { issueKey } from "../domain-calls";

const TOKEN = "metrics-test-token-0123456789";
let server: InProcessServer;

beforeAll(async () => {
  process.env.METRICS_TOKEN = TOKEN;
  expect(env().METRICS_TOKEN).toBe(TOKEN);
  server = await startInProcessServer();
});
afterAll(() => server.close());

const scrapeAs = (authorization?: string, init: RequestInit = {}) =>
  fetch(`${server.origin}/metrics`, { ...init, headers: { ...(authorization === undefined ? {} : { authorization }), ...init.headers } });

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The exposition's samples (comments and blank lines skipped). */
function samples(text: string): Sample[] {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not an exposition line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

async function scrape(): Promise<Sample[]> {
  const response = await scrapeAs(`Bearer ${TOKEN}`);
  expect(response.status).toBe(200);
  return samples(await response.text());
}

const value = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
  all.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

describe("who may read /metrics", () => {
  it("answers the right token, in Prometheus's text format, for GET and HEAD", async () => {
    const response = await scrapeAs(`Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(samples(await response.text()).length).toBeGreaterThan(20);
    // The scheme is case-insensitive (RFC 9110).
    expect((await scrapeAs(`bearer ${TOKEN}`)).status).toBe(200);
    const head = await scrapeAs(`Bearer ${TOKEN}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("refuses every other Authorization with 401 and WWW-Authenticate, in the caller's language", async () => {
    const refused = [
      undefined,
      "",
      "Bearer",
      "Bearer ",
      "Bearer wrong-token-of-some-length",
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN.toUpperCase()}`,
      `Basic ${Buffer.from(`metrics:${TOKEN}`).toString("base64")}`,
      `Token ${TOKEN}`,
      `Bearer ${TOKEN} ${TOKEN}`,
      `Bearer ${"a".repeat(8000)}`,
      `Bearer ${TOKEN}${"=".repeat(2000)}`,
    ];
    for (const authorization of refused) {
      const response = await scrapeAs(authorization);
      expect(response.status, String(authorization).slice(0, 40)).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe("UNAUTHORIZED");
      expect(body.message).toContain("METRICS_TOKEN");
      expect(await response.text().catch(() => "")).not.toContain("keyledger_");
    }
    const german = await scrapeAs("Bearer nope-nope-nope-nope", { headers: { "accept-language": "de" } });
    expect(((await german.json()) as { message: string }).message).toContain("Die Metriken erfordern");
    // A browser gets the edge's small page, titled as a refusal (not a sign-in).
    const page = await scrapeAs(undefined, { headers: { accept: "text/html" } });
    expect([page.status, page.headers.get("www-authenticate")]).toEqual([401, 'Bearer realm="metrics"']);
    expect(await page.text()).toContain("<h1>Access denied</h1>");
  });

  it("answers other methods 405 with Allow, token or not", async () => {
    for (const method of ["POST", "PUT", "DELETE", "OPTIONS"]) {
      const response = await scrapeAs(`Bearer ${TOKEN}`, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD");
    }
  });
});

describe("what /metrics says", () => {
  it("counts requests by route family and status class, never by path or id", async () => {
    const before = await scrape();
    await fetch(`${server.origin}/rpc/apiKey/${randomUUID()}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    await fetch(`${server.origin}/api/organizations/${randomUUID()}/logos/${randomUUID()}`);
    await fetch(`${server.origin}/ping`);
    await fetch(`${server.origin}/login`);
    const after = await scrape();
    const count = (all: Sample[], route: string, status: string) => value(all, "keyledger_http_requests_total", { route, status }) ?? 0;
    expect(count(after, "rpc.unknown", "4xx") - count(before, "rpc.unknown", "4xx")).toBe(1);
    expect(count(after, "api", "4xx") - count(before, "api", "4xx")).toBe(1);
    expect(count(after, "health", "2xx") - count(before, "health", "2xx")).toBe(1);
    expect(count(after, "page", "2xx") - count(before, "page", "2xx")).toBe(1);
    expect(value(after, "keyledger_http_request_duration_seconds_count", { route: "page", status: "2xx" })).toBeGreaterThanOrEqual(1);
    const routes = new Set(after.filter((s) => s.labels.route !== undefined).map((s) => s.labels.route));
    for (const route of routes)
      expect(route).toMatch(/^(rpc\.[A-Za-z]+(\.[A-Za-z]+)+|rpc\.unknown|page|data|api|asset|health|metrics|other)$/);
    expect(JSON.stringify(after)).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it("counts apiKey.authenticate outcomes: ok, unauthorized, forbidden", async () => {
    const owner = await memberOfNewOrganization("owner");
    const { secret } = await issueKey(owner.auth, owner.organization.id, { name: "probe", scopes: ["audit:view"], expiresAt: null });
    const before = await scrape();
    const authenticate = (authorization: string | null, scopes: string[] = []) =>
      fetch(`${server.origin}/rpc/apiKey/authenticate`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ json: { scopes } }),
      });
    expect((await authenticate(`Bearer ${secret}`)).status).toBe(200);
    expect((await authenticate(`Bearer ${secret}`, ["audit:view"])).status).toBe(200);
    expect((await authenticate(`Bearer ${secret}`, ["member:read"])).status).toBe(403);
    expect((await authenticate(null)).status).toBe(401);
    expect((await authenticate("Bearer sk_not-a-key")).status).toBe(401);
    expect((await authenticate(`Bearer ${generateSecret(randomUUID()).secret}`)).status).toBe(401);
    const after = await scrape();
    const delta = (outcome: string) =>
      (value(after, "keyledger_authenticate_total", { outcome }) ?? 0) - (value(before, "keyledger_authenticate_total", { outcome }) ?? 0);
    expect({ ok: delta("ok"), unauthorized: delta("unauthorized"), forbidden: delta("forbidden") }).toEqual({
      ok: 2,
      unauthorized: 3,
      forbidden: 1,
    });
  });

  it("counts rate-limit refusals by policy", async () => {
    const key = randomUUID();
    const before = value(await scrape(), "keyledger_rate_limit_refusals_total", { policy: "audit.export.user" }) ?? 0;
    for (let i = 0; i < 5; i++) await consume("audit.export.user", key);
    await expect(consume("audit.export.user", key)).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect(value(await scrape(), "keyledger_rate_limit_refusals_total", { policy: "audit.export.user" })).toBe(before + 1);
  });

  it("shows each pool, the export slots, build info and the process figures", async () => {
    const all = await scrape();
    for (const pool of ["main", "export", "metrics"]) {
      for (const name of ["connections", "idle_connections", "waiting_requests", "max_connections"])
        expect(value(all, `keyledger_db_pool_${name}`, { pool }), `${name} ${pool}`).toBeGreaterThanOrEqual(0);
    }
    expect(value(all, "keyledger_db_pool_max_connections", { pool: "export" })).toBe(10);
    expect(value(all, "keyledger_audit_export_slots_in_use")).toBe(0);
    expect(value(all, "keyledger_audit_export_slots")).toBe(10);
    const info = all.find((s) => s.name === "keyledger_build_info");
    expect(info?.value).toBe(1);
    expect(info?.labels).toMatchObject({ version: "0.1.0", node_version: process.versions.node });
    expect(info?.labels.commit).toMatch(/^([0-9a-f]{12}|unknown)$/);
    expect(value(all, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(value(all, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
  });

  it("counts waiting and permanently failed jobs, and still answers while the database refuses the scrape", async () => {
    const before = await scrape();
    expect(value(before, "keyledger_job_queue_up")).toBe(1);
    await prisma.$transaction((tx) => enqueueJob(tx, "metrics-probe", {}));
    await prisma.$transaction((tx) => enqueueJob(tx, "metrics-probe-failed", {}));
    await prisma.$executeRaw`UPDATE graphile_worker._private_jobs SET attempts = max_attempts
      WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'metrics-probe-failed')`;
    const after = await scrape();
    expect(value(after, "keyledger_job_queue_depth")).toBe((value(before, "keyledger_job_queue_depth") ?? 0) + 1);
    expect(value(after, "keyledger_jobs_failed_permanently")).toBe((value(before, "keyledger_jobs_failed_permanently") ?? 0) + 1);

    const database = new URL(process.env.DATABASE_URL!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: inject("databaseAdminUrl") });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'keyledger-metrics'",
        [database],
      );
      const down = await scrape();
      expect(value(down, "keyledger_job_queue_up")).toBe(0);
      expect(value(down, "keyledger_job_queue_depth")).toBeUndefined();
      expect(value(down, "keyledger_jobs_failed_permanently")).toBeUndefined();
      expect(value(down, "keyledger_db_pool_max_connections", { pool: "main" })).toBe(env().DATABASE_POOL_SIZE);
    } finally {
      await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    expect(value(await scrape(), "keyledger_job_queue_up")).toBe(1);
  });
});
