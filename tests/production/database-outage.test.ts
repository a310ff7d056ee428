// The production server on a PostgreSQL of its own that the test stops, starves of connections and
// crashes under load (docs/decisions/0036-database-outages-answer-503.md): every request that needs
// the database answers 503 with Retry-After (a translated page, the RPC error shape, JSON), never
// 500; the process stays up and recovers by itself; nothing acknowledged is lost and nothing is
// half-written.
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "~/db.server";
import { createOrganizationWith, createUser, signedIn } from "../factories";
import { issueKey } from "../domain-calls";
import { APP_LOGIN, startCrashablePostgres, type CrashablePostgres } from "./crashable-postgres.ts";
import { startProductionServer, type ProductionServer } from "./production-server.ts";
import { eventually } from "../eventually";

let db: CrashablePostgres;
let server: ProductionServer;
/** An owner of an organization on the enterprise plan (audit export on), and a key of theirs. */
const owner = { organizationId: "", cookie: "", secret: "" };

async function newOwner() {
  const user = await createUser();
  const organization = await createOrganizationWith([{ userId: user.id, role: "owner" }], { planId: "enterprise" });
  const { token, auth } = await signedIn(user.id, organization.id);
  return { organizationId: organization.id, cookie: `session=${token}`, auth };
}

beforeAll(async () => {
  db = await startCrashablePostgres();
  // This file's own records go to the crashable server too (db.server reads DATABASE_URL on first use).
  process.env.DATABASE_URL = db.url;
  const created = await newOwner();
  const issued = await issueKey(created.auth, created.organizationId, { name: "probe", scopes: ["organization:read"] });
  Object.assign(owner, { organizationId: created.organizationId, cookie: created.cookie, secret: issued.secret });
  server = await startProductionServer(db.url);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await disconnectDb();
  await db?.stop();
}, 60_000);

const sameOrigin = () => ({ Origin: server.origin, "Sec-Fetch-Site": "same-origin" });

function authenticate(language = "en") {
  return fetch(`${server.origin}/rpc/apiKey/authenticate`, {
    method: "POST",
    headers: { Authorization: `Bearer ${owner.secret}`, "Content-Type": "application/json", "Accept-Language": language },
    body: JSON.stringify({ json: { scopes: [] } }),
  });
}

function procedure(path: string, cookie: string, input: unknown, language = "en") {
  return fetch(`${server.origin}/rpc/${path}`, {
    method: "POST",
    headers: { ...sameOrigin(), Cookie: cookie, "Content-Type": "application/json", "Accept-Language": language },
    body: JSON.stringify({ json: input }),
  });
}

const page = (path: string, language = "en", accept = "text/html") =>
  fetch(`${server.origin}${path}`, { headers: { Cookie: owner.cookie, Accept: accept, "Accept-Language": language } });

/** A check that throws (the server not answering yet) counts as not yet; a failure shows the server's last output. */
const eventuallyAnswers = (check: () => Promise<boolean>, what: string, limitMs = 30_000) =>
  eventually(() => check().catch(() => false), what, { limitMs, detail: () => server.output().slice(-3000) });

async function expectRpcUnavailable(response: Response, message: RegExp) {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe("5");
  const body = (await response.json()) as { json: { code: string; status: number; message: string } };
  expect(body.json).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503 });
  expect(body.json.message).toMatch(message);
}

describe("while the database is stopped", () => {
  beforeAll(async () => {
    await db.crash();
  }, 60_000);
  afterAll(async () => {
    await db.restart();
  }, 90_000);

  it("a page answers the translated 503 page with Retry-After and a way to try again, in English and German", async () => {
    const english = await page("/dashboard/api-keys?x=1");
    expect(english.status).toBe(503);
    expect(english.headers.get("retry-after")).toBe("5");
    expect(english.headers.get("content-type")).toContain("text/html");
    const englishHtml = await english.text();
    expect(englishHtml).toContain('lang="en"');
    expect(englishHtml).toContain("Temporarily unavailable");
    expect(englishHtml).toContain("cannot reach its database");
    expect(englishHtml).toContain('<a href="/dashboard/api-keys?x=1">Try again</a>');

    const german = await page("/dashboard", "de");
    expect(german.status).toBe(503);
    expect(german.headers.get("retry-after")).toBe("5");
    const germanHtml = await german.text();
    expect(germanHtml).toContain('lang="de"');
    expect(germanHtml).toContain("Vorübergehend nicht verfügbar");
    expect(germanHtml).toContain("erreicht seine Datenbank gerade nicht");
    expect(germanHtml).toContain("Erneut versuchen");
  });

  it("a form's action (sign-in: the rate limiter on PostgreSQL) answers 503, the form kept with the message", async () => {
    const response = await fetch(`${server.origin}/login`, {
      method: "POST",
      headers: { ...sameOrigin(), Accept: "text/html", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "someone@example.test", password: "a-long-enough-password" }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    // Through the form's own error handling: the sign-in page again, with the message above the form.
    const html = await response.text();
    expect(html).toContain("cannot reach its database");
    expect(html).toContain('value="someone@example.test"');
  });

  it("a page's .data answers 503 JSON that React Router's client shows as an error (no X-Remix-Response)", async () => {
    const response = await page("/dashboard.data", "de", "*/*");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(response.headers.has("x-remix-response")).toBe(false);
    expect(await response.json()).toEqual({ code: "SERVICE_UNAVAILABLE", message: expect.stringContaining("Datenbank") });
  });

  it("the audit export, its digests and a logo answer 503 with Retry-After", async () => {
    const exported = await page(`/api/organizations/${owner.organizationId}/audit-log/export?format=json`, "en", "application/json");
    expect(exported.status).toBe(503);
    expect(exported.headers.get("retry-after")).toBe("5");
    expect(await exported.json()).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    const digests = await page(`/api/organizations/${owner.organizationId}/audit-log/digests`, "en", "application/json");
    expect(digests.status).toBe(503);
    expect(digests.headers.get("retry-after")).toBe("5");
    expect(await digests.json()).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    const logo = await page(`/api/organizations/${owner.organizationId}/logos/0190c3a4-0000-7000-8000-000000000000`, "en", "image/*");
    expect(logo.status).toBe(503);
    expect(logo.headers.get("retry-after")).toBe("5");
  });

  it("/rpc answers the RPC error shape SERVICE_UNAVAILABLE, translated, for keys and sessions alike", async () => {
    await expectRpcUnavailable(await authenticate(), /cannot reach its database/);
    await expectRpcUnavailable(await authenticate("de"), /Datenbank/);
    await expectRpcUnavailable(
      await procedure("apiKey/issue", owner.cookie, { organizationId: owner.organizationId, name: "x", scopes: ["organization:read"] }),
      /cannot reach its database/,
    );
  });

  it("logs one warn line per failed request, with the reason, and no error stack", async () => {
    // Every request above (9) has its line once its answer was sent; the output arrives through a pipe.
    await eventuallyAnswers(async () => server.logLines().filter((line) => line.databaseUnavailable).length >= 9, "the log lines");
    const lines = server.logLines();
    const unavailable = lines.filter((line) => line.databaseUnavailable);
    for (const line of unavailable) expect(line).toMatchObject({ level: "warn", msg: "request", status: 503 });
    expect(lines.filter((line) => line.level === "error" && /failed$/.test(String(line.msg)))).toEqual([]);
    expect(server.child.exitCode).toBeNull();
  });
});

describe("when the database has no connection left for the app", () => {
  it("answers 503, not 500, and recovers once connections are given back", async () => {
    await eventuallyAnswers(async () => (await authenticate()).status === 200, "the first recovery");
    // The app's role may open no connection, and the ones it had are cut: as when another client
    // has taken every connection the server allows (SQLSTATE 53300 for every new one).
    await db.admin(async (c) => {
      await c.query(`ALTER ROLE ${APP_LOGIN} CONNECTION LIMIT 0`);
      await c.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1", [APP_LOGIN]);
    });
    try {
      await eventuallyAnswers(async () => (await authenticate()).status === 503, "a 503");
      await expectRpcUnavailable(await authenticate(), /cannot reach its database/);
      const dashboard = await page("/dashboard");
      expect(dashboard.status).toBe(503);
      expect(dashboard.headers.get("retry-after")).toBe("5");
      // Log lines are written asynchronously, after the answer.
      await eventuallyAnswers(
        async () => server.logLines().some((line) => line.databaseUnavailable === "tooManyConnections"),
        "the log line",
      );
    } finally {
      await db.admin((c) => c.query(`ALTER ROLE ${APP_LOGIN} CONNECTION LIMIT -1`));
    }
    await eventuallyAnswers(async () => (await authenticate()).status === 200, "recovery");
    expect((await page("/dashboard")).status).toBe(200);
  }, 60_000);
});

interface Outcome {
  kind: "authenticate" | "issue" | "revoke" | "page";
  status: number;
  retryAfter: string | null;
  startedAt: number;
  endedAt: number;
}

describe("PostgreSQL crashed under load (immediate shutdown) and restarted", () => {
  it("answers no 500, keeps the process up, recovers within 5 s and loses or half-writes nothing acknowledged", async () => {
    await eventuallyAnswers(async () => (await authenticate()).status === 200, "the start of the run");
    const creators = await Promise.all([newOwner(), newOwner()]);
    const outcomes: Outcome[] = [];
    const networkErrors: unknown[] = [];
    const issued: { organizationId: string; keyId: string }[] = [];
    const revoked: string[] = [];
    let running = true;

    async function timed(kind: Outcome["kind"], request: () => Promise<Response>): Promise<Response | null> {
      const startedAt = Date.now();
      try {
        const response = await request();
        outcomes.push({ kind, status: response.status, retryAfter: response.headers.get("retry-after"), startedAt, endedAt: Date.now() });
        return response;
      } catch (error) {
        networkErrors.push(error);
        return null;
      }
    }
    async function loop(step: () => Promise<void>) {
      while (running) await step();
    }
    const authenticateLoop = () =>
      loop(async () => {
        await (await timed("authenticate", () => authenticate()))?.arrayBuffer();
      });
    const pageLoop = () =>
      loop(async () => {
        await (await timed("page", () => page("/dashboard/organization-settings/api-keys")))?.arrayBuffer();
      });
    // Issue a key, then revoke it (an organization holds at most 25 unrevoked keys); a revoke that
    // was refused is tried again first.
    const keyLoop = (creator: (typeof creators)[number]) => {
      const pending: string[] = [];
      return loop(async () => {
        const keyId = pending.shift();
        if (keyId) {
          const response = await timed("revoke", () =>
            procedure("apiKey/revoke", creator.cookie, { organizationId: creator.organizationId, keyId }),
          );
          if (response?.status === 200) revoked.push(keyId);
          else pending.unshift(keyId);
          await response?.arrayBuffer();
          if (response?.status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
          return;
        }
        const input = { organizationId: creator.organizationId, name: `load ${issued.length}`, scopes: ["organization:read"] };
        const response = await timed("issue", () => procedure("apiKey/issue", creator.cookie, input));
        if (response?.status === 200) {
          const { json } = (await response.json()) as { json: { key: { id: string } } };
          issued.push({ organizationId: creator.organizationId, keyId: json.key.id });
          pending.push(json.key.id);
        } else {
          await response?.arrayBuffer();
        }
      });
    };
    const loops = [authenticateLoop(), authenticateLoop(), authenticateLoop(), pageLoop(), ...creators.map(keyLoop)];

    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await db.crash();
    const crashedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    // pg_ctl returns a moment after the server accepts connections: "during" ends when it starts.
    const restartingAt = Date.now();
    await db.restart();
    const backAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    running = false;
    await Promise.all(loops);

    expect(networkErrors).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    // The crash was felt (503s while it was down), and nothing answered 500 or another 5xx.
    const during = outcomes.filter((o) => o.startedAt > crashedAt + 500 && o.endedAt < restartingAt);
    expect(during.length).toBeGreaterThan(10);
    expect(during.filter((o) => o.status !== 503)).toEqual([]);
    expect(outcomes.filter((o) => o.status >= 500 && o.status !== 503)).toEqual([]);
    expect(outcomes.filter((o) => o.status === 503 && o.retryAfter !== "5")).toEqual([]);
    expect(outcomes.filter((o) => o.status !== 200 && o.status !== 503)).toEqual([]);
    // authenticate answers again within 5 s of the database's return.
    const firstBack = outcomes.find((o) => o.kind === "authenticate" && o.status === 200 && o.startedAt >= backAt);
    expect(firstBack).toBeDefined();
    expect(firstBack!.endedAt - backAt).toBeLessThan(5_000);
    for (const kind of ["issue", "revoke", "page"] as const)
      expect(
        outcomes.some((o) => o.kind === kind && o.status === 200 && o.startedAt >= backAt),
        `${kind} answered 200 after the return`,
      ).toBe(true);

    // Every acknowledged change is there with its audit event, and nothing is half-written: each
    // key of these organizations has exactly one `api_key.issued` event, each revoked key one
    // `api_key.revoked`, and no event names a key that is not there.
    expect(issued.length).toBeGreaterThan(5);
    const organizationIds = creators.map((c) => c.organizationId);
    const { keys, events } = await db.admin(async (c) => ({
      keys: (
        await c.query<{ id: string; revoked: boolean }>(
          "SELECT id, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE organization_id = ANY($1::uuid[])",
          [organizationIds],
        )
      ).rows,
      events: (
        await c.query<{ action: string; target_id: string }>(
          "SELECT action, target_id FROM audit_events WHERE organization_id = ANY($1::uuid[]) AND action LIKE 'api_key.%'",
          [organizationIds],
        )
      ).rows,
    }));
    const keyState = new Map(keys.map((k) => [k.id, k.revoked]));
    for (const { keyId } of issued) expect(keyState.has(keyId)).toBe(true);
    for (const keyId of revoked) expect(keyState.get(keyId)).toBe(true);
    const count = (action: string, id: string) => events.filter((e) => e.action === action && e.target_id === id).length;
    for (const [id, isRevoked] of keyState) {
      expect(count("api_key.issued", id)).toBe(1);
      expect(count("api_key.revoked", id)).toBe(isRevoked ? 1 : 0);
    }
    expect(events.filter((e) => !keyState.has(e.target_id))).toEqual([]);
    expect(events.filter((e) => e.action !== "api_key.issued" && e.action !== "api_key.revoked")).toEqual([]);

    // The job worker is back by itself: its LISTEN connection was cut with the rest and reconnected
    // (graphile-worker retries with backoff), and a job added now runs.
    const listening = (c: pg.Client) =>
      c.query("SELECT 1 FROM pg_stat_activity WHERE usename = $1 AND query LIKE 'LISTEN \"jobs:insert\"%'", [APP_LOGIN]);
    await eventuallyAnswers(async () => (await db.admin(listening)).rowCount === 1, "the worker's LISTEN", 60_000);
    await db.admin((c) => c.query("SELECT graphile_worker.add_job('send-invitation-mail', '{}'::json)"));
    await eventuallyAnswers(async () => server.output().includes("job with an unreadable payload: dropped"), "the job's run");
  }, 120_000);
});
