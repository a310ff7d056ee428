// The production server on a PostgreSQL of its own that the test stalls rather than stops
// (docs/decisions/0070-a-stalled-database-answers-503.md): a table lock held by other work, as a
// migration's ALTER TABLE takes it, and the whole server frozen (every process stopped), as a host
// that stops scheduling it looks to clients. Key changes, apiKey.authenticate and pages answer 503
// with Retry-After in bounded time, never 500, nothing is half-written, and all is well once it passes.
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "~/db.server";
import { createOrganizationWith, createUser, signedIn } from "../factories";
import { issueKey } from "../domain-calls";
import { startCrashablePostgres, type CrashablePostgres } from "./crashable-postgres.ts";
import { startProductionServer, type ProductionServer } from "./production-server.ts";
import { untilWaitingForLock } from "../lock-waits";

/** Backends of this database waiting for a lock while running a statement that mentions $1. */
const LOCK_WAITERS = `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE $1`;

let db: CrashablePostgres;
let server: ProductionServer;
const owner = { organizationId: "", cookie: "", secret: "", keyId: "" };

beforeAll(async () => {
  db = await startCrashablePostgres();
  process.env.DATABASE_URL = db.url;
  const user = await createUser();
  const organization = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
  const { token, auth } = await signedIn(user.id, organization.id);
  const issued = await issueKey(auth, organization.id, { name: "probe", scopes: ["organization:read"] });
  Object.assign(owner, { organizationId: organization.id, cookie: `session=${token}`, secret: issued.secret, keyId: issued.key.id });
  server = await startProductionServer(db.url);
}, 180_000);

afterAll(async () => {
  // Never leave the server stopped, whatever a test left behind.
  try {
    db?.thaw();
  } catch {
    // Stopped with the rest below, whatever state it is in.
  }
  await server?.stop();
  await disconnectDb();
  await db?.stop();
}, 60_000);

const authenticate = () =>
  fetch(`${server.origin}/rpc/apiKey/authenticate`, {
    method: "POST",
    headers: { Authorization: `Bearer ${owner.secret}`, "Content-Type": "application/json" },
    body: JSON.stringify({ json: { scopes: [] } }),
  });

const procedure = (path: string, input: unknown) =>
  fetch(`${server.origin}/rpc/${path}`, {
    method: "POST",
    headers: { Origin: server.origin, "Sec-Fetch-Site": "same-origin", Cookie: owner.cookie, "Content-Type": "application/json" },
    body: JSON.stringify({ json: input }),
  });

const issueThroughRpc = (name: string) =>
  procedure("apiKey/issue", { organizationId: owner.organizationId, name, scopes: ["organization:read"] });

/** The keys page's issue form, as a browser without JavaScript posts it. */
const issueThroughForm = (name: string) =>
  fetch(`${server.origin}/dashboard/organization-settings/api-keys`, {
    method: "POST",
    headers: {
      Origin: server.origin,
      "Sec-Fetch-Site": "same-origin",
      Cookie: owner.cookie,
      Accept: "text/html",
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ intent: "issue", name, scopes: "organization:read" }),
  });

async function timed(request: () => Promise<Response>) {
  const started = performance.now();
  const response = await request();
  const body = await response.text();
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body, ms: performance.now() - started };
}

const keysNamed = (name: string) =>
  db.admin(async (c: pg.Client) => (await c.query("SELECT 1 FROM api_keys WHERE name = $1", [name])).rowCount);
const eventsOf = (action: string) =>
  db.admin(
    async (c: pg.Client) =>
      (await c.query("SELECT 1 FROM audit_events WHERE organization_id = $1::uuid AND action = $2", [owner.organizationId, action]))
        .rowCount,
  );

describe("while other work holds api_keys locked (a migration's ALTER TABLE queued behind a reader)", () => {
  let holder: pg.Client;
  let release: () => void;
  let held: Promise<unknown>;

  beforeAll(async () => {
    // A superuser session keeps the lock, in a transaction of its own, until release() is called.
    let ready!: () => void;
    const locked = new Promise<void>((resolve) => (ready = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    held = db.admin(async (c) => {
      holder = c;
      await c.query("BEGIN");
      await c.query("LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE");
      ready();
      await released;
      await c.query("ROLLBACK");
    });
    await locked;
  });

  afterAll(async () => {
    release();
    await held;
  });

  it("issue, rotate and revoke over /rpc answer 503 with Retry-After after the lock timeout, not 500 after 5 s", async () => {
    const revokeEventsBefore = await eventsOf("api_key.revoked");
    // One after the other: changes of one organization queue on its row, so side by side each
    // would wait its turn there too (each wait bounded, their sum not).
    const answers = [
      await timed(() => issueThroughRpc("locked out")),
      await timed(() => procedure("apiKey/rotate", { organizationId: owner.organizationId, keyId: owner.keyId })),
      await timed(() => procedure("apiKey/revoke", { organizationId: owner.organizationId, keyId: owner.keyId })),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.body).toBe(503);
      expect(answer.retryAfter).toBe("5");
      expect(JSON.parse(answer.body)).toMatchObject({ json: { code: "SERVICE_UNAVAILABLE", status: 503 } });
      expect(answer.ms).toBeLessThan(5_000);
    }
    expect(holder).toBeDefined();
    release();
    await held;
    expect(await keysNamed("locked out")).toBe(0);
    expect(await eventsOf("api_key.revoked")).toBe(revokeEventsBefore);
  }, 30_000);
});

describe("while the keys page's form meets a lock", () => {
  it("answers the page with its form and the message, 503, and nothing issued", async () => {
    const result = await db.admin(async (holder) => {
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE");
      const answer = timed(() => issueThroughForm("form locked out"));
      // The page's loader reads the keys after the action: the lock goes once the action has given
      // up waiting (as a migration's short ALTER TABLE would go), so the page can be drawn.
      await db.admin(async (watcher) => {
        await untilWaitingForLock(watcher, "api_keys");
        while ((await watcher.query(LOCK_WAITERS, ["%api_keys%"])).rowCount) await new Promise((resolve) => setTimeout(resolve, 20));
      });
      await holder.query("ROLLBACK");
      return answer;
    });
    expect(result.status).toBe(503);
    expect(result.retryAfter).toBe("5");
    expect(result.body).toContain("cannot reach its database");
    expect(await keysNamed("form locked out")).toBe(0);
  }, 30_000);
});

describe("while PostgreSQL is frozen (every process stopped) under load", () => {
  it("authenticate, pages and sign-in answer 503 within seconds while frozen, nothing answers 500, nothing is half-written, and all recovers", async () => {
    expect((await authenticate()).status).toBe(200);
    type Outcome = { kind: string; status: number; retryAfter: string | null; endedAt: number };
    const outcomes: Outcome[] = [];
    const issued: string[] = [];
    let running = true;
    const record = async (kind: string, request: () => Promise<Response>) => {
      const response = await request();
      outcomes.push({ kind, status: response.status, retryAfter: response.headers.get("retry-after"), endedAt: Date.now() });
      return response;
    };
    const authenticateLoop = async () => {
      while (running) await (await record("authenticate", authenticate)).arrayBuffer();
    };
    // Issue a key and revoke it, again and again: some transaction is always open when the freeze comes.
    const keyLoop = async (loop: number) => {
      for (let n = 0; running; n++) {
        const response = await record("issue", () => issueThroughRpc(`load ${loop}-${n}`));
        if (response.status !== 200) {
          await response.arrayBuffer();
          continue;
        }
        const { json } = (await response.json()) as { json: { key: { id: string } } };
        issued.push(json.key.id);
        let revoked = 0;
        while (revoked !== 200 && running) {
          const answer = await record("revoke", () =>
            procedure("apiKey/revoke", { organizationId: owner.organizationId, keyId: json.key.id }),
          );
          revoked = answer.status;
          await answer.arrayBuffer();
        }
      }
    };
    const pageLoop = async () => {
      while (running)
        await (await record("page", () => fetch(`${server.origin}/dashboard`, { headers: { Cookie: owner.cookie } }))).arrayBuffer();
    };
    // Sign-in forms, a wrong password (401) every 400 ms, under the address's limit of failures:
    // the rate limiter's statement comes first.
    const signInLoop = async () => {
      while (running) {
        await new Promise((resolve) => setTimeout(resolve, 400));
        const response = await record("sign-in", () =>
          fetch(`${server.origin}/login`, {
            method: "POST",
            headers: {
              Origin: server.origin,
              "Sec-Fetch-Site": "same-origin",
              Accept: "text/html",
              "Content-Type": "application/x-www-form-urlencoded",
            },
            body: new URLSearchParams({ email: `stall-${outcomes.length}@example.test`, password: "not-the-password-at-all" }),
          }),
        );
        await response.arrayBuffer();
      }
    };
    const loops = [authenticateLoop(), authenticateLoop(), pageLoop(), signInLoop(), keyLoop(1), keyLoop(2)];
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const frozenAt = Date.now();
    let thawedAt = 0;
    try {
      db.freeze();
      // Frozen longer than an interactive transaction may last (5 s) and than authenticate waits.
      await new Promise((resolve) => setTimeout(resolve, 7_000));
    } finally {
      db.thaw();
      thawedAt = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    running = false;
    await Promise.all(loops);

    expect(outcomes.filter((o) => o.status !== 200 && o.status !== 503 && !(o.kind === "sign-in" && o.status === 401))).toEqual([]);
    expect(outcomes.filter((o) => o.status === 503 && o.retryAfter !== "5")).toEqual([]);
    // Integrators and people were told to come back while the database was still frozen, not held.
    for (const kind of ["authenticate", "page", "sign-in"])
      expect(
        outcomes.some((o) => o.kind === kind && o.status === 503 && o.endedAt > frozenAt && o.endedAt < thawedAt),
        `${kind} answered 503 while frozen`,
      ).toBe(true);
    // And everything answers again after the thaw.
    for (const kind of ["authenticate", "page", "issue", "revoke"])
      expect(
        outcomes.some((o) => o.kind === kind && o.status === 200 && o.endedAt > thawedAt + 1_000),
        `${kind} after the thaw`,
      ).toBe(true);
    // Every acknowledged key is there with exactly one issued event, and no key lacks its event.
    const rows = await db.admin(
      async (c: pg.Client) =>
        (
          await c.query<{ id: string; issued: number }>(
            `SELECT k.id, (SELECT count(*)::int FROM audit_events e WHERE e.organization_id = k.organization_id
                AND e.action = 'api_key.issued' AND e.target_id = k.id::text) AS issued
             FROM api_keys k WHERE k.organization_id = $1::uuid AND k.name LIKE 'load %'`,
            [owner.organizationId],
          )
        ).rows,
    );
    const stored = new Set(rows.map((row) => row.id));
    for (const id of issued) expect(stored.has(id)).toBe(true);
    expect(rows.filter((row) => row.issued !== 1)).toEqual([]);
  }, 60_000);

  it("logged a warn line with the reason for each 503, and no error", async () => {
    const lines = server.logLines();
    const reasons = new Set(lines.filter((line) => line.status === 503).map((line) => line.databaseUnavailable));
    expect(reasons).toContain("lockTimeout");
    expect(reasons).toContain("timeout");
    expect([...reasons].filter((reason) => reason === undefined)).toEqual([]);
    for (const line of lines.filter((l) => l.status === 503)) expect(line.level).toBe("warn");
    expect(lines.filter((line) => line.level === "error")).toEqual([]);
    expect(lines.filter((line) => typeof line.status === "number" && line.status >= 500 && line.status !== 503)).toEqual([]);
    expect(server.child.exitCode).toBeNull();
  });
});
