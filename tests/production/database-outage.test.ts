// The production server on a PostgreSQL of its own that the test stops, starves of connections and
// crashes under load (docs/decisions/0036-database-outages-answer-503.md): every request that needs
// the database answers 503 with Retry-After (a translated page, the RPC error shape, JSON), never
// 500; the process stays up and recovers by itself; nothing acknowledged is lost and nothing is
// half-written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "~/db.server";
import { createOrganizationWith, createUser, signedIn } from "../factories";
import { issueKey } from "../domain-calls";
import { APP_ROLE, startCrashablePostgres, type CrashablePostgres } from "./crashable-postgres.ts";
import { startProductionServer, type ProductionServer } from "./production-server.ts";

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

async function eventually(check: () => Promise<boolean>, what: string, limitMs = 30_000) {
  const deadline = Date.now() + limitMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${limitMs / 1000} s:\n${server.output().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The server's JSON log lines. */
function logLines(): Record<string, unknown>[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

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

  it("a page's .data answers 503 JSON that React Router's client shows as an error (no X-Remix-Response)", async () => {
    const response = await page("/dashboard.data", "de", "*/*");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(response.headers.has("x-remix-response")).toBe(false);
    expect(await response.json()).toEqual({ code: "SERVICE_UNAVAILABLE", message: expect.stringContaining("Datenbank") });
  });

  it("the audit export and a logo answer 503 with Retry-After", async () => {
    const exported = await page(`/api/organizations/${owner.organizationId}/audit-log/export?format=json`, "en", "application/json");
    expect(exported.status).toBe(503);
    expect(exported.headers.get("retry-after")).toBe("5");
    expect(await exported.json()).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
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
    // Every request above (8) has its line once its answer was sent; the output arrives through a pipe.
    await eventually(async () => logLines().filter((line) => line.databaseUnavailable).length >= 8, "the log lines");
    const lines = logLines();
    const unavailable = lines.filter((line) => line.databaseUnavailable);
    for (const line of unavailable) expect(line).toMatchObject({ level: "warn", msg: "request", status: 503 });
    expect(lines.filter((line) => line.level === "error" && /failed$/.test(String(line.msg)))).toEqual([]);
    expect(server.child.exitCode).toBeNull();
  });
});

describe("when the database has no connection left for the app", () => {
  it("answers 503, not 500, and recovers once connections are given back", async () => {
    await eventually(async () => (await authenticate()).status === 200, "the first recovery");
    // The app's role may open no connection, and the ones it had are cut: as when another client
    // has taken every connection the server allows (SQLSTATE 53300 for every new one).
    await db.admin(async (c) => {
      await c.query(`ALTER ROLE ${APP_ROLE} CONNECTION LIMIT 0`);
      await c.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1", [APP_ROLE]);
    });
    try {
      await eventually(async () => (await authenticate()).status === 503, "a 503");
      await expectRpcUnavailable(await authenticate(), /cannot reach its database/);
      const dashboard = await page("/dashboard");
      expect(dashboard.status).toBe(503);
      expect(dashboard.headers.get("retry-after")).toBe("5");
      expect(logLines().some((line) => line.databaseUnavailable === "tooManyConnections")).toBe(true);
    } finally {
      await db.admin((c) => c.query(`ALTER ROLE ${APP_ROLE} CONNECTION LIMIT -1`));
    }
    await eventually(async () => (await authenticate()).status === 200, "recovery");
    expect((await page("/dashboard")).status).toBe(200);
  }, 60_000);
});
