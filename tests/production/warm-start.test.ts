// The production start warms what every request needs before it listens (app/web/warm-up.server.ts,
// docs/decisions/0042-pages-at-dashboard-speed.md): its pool's first connections are open and stay
// open while it sits idle, and the warming writes nothing (no session, no audit event, no request
// log line) and leaves a signed-in visitor's pages as they were. No timings: what is asserted is
// what the warming leaves behind.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/auth/session.server";
import { createOrganizationWith, createUser } from "../factories.ts";
import { startProductionServer, type ProductionServer } from "./production-server.ts";

const databaseUrl = process.env.DATABASE_URL!;
let server: ProductionServer;
let client: pg.Client;

/** The server's own connections to this database (this test's client excluded). */
async function serverConnections(): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
  );
  return rows[0]!.n;
}

const count = async (table: string) => (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;

beforeAll(async () => {
  client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
});
afterAll(async () => {
  await server?.stop();
  await client?.end();
});

describe("the production start, warm", () => {
  it("opens its first connections before it answers, keeps them past the pool's idle timeout, and writes nothing", async () => {
    const [sessions, events] = [await count("sessions"), await count("audit_events")];
    server = await startProductionServer(databaseUrl);
    expect(await serverConnections()).toBeGreaterThanOrEqual(4);
    // node-postgres closes a connection idle for 10 s unless the pool keeps it.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    expect(await serverConnections()).toBeGreaterThanOrEqual(4);
    expect([await count("sessions"), await count("audit_events")]).toEqual([sessions, events]);
    // The only request so far is the test's own wait for /healthz: the warm-up's pages are not requests.
    const paths = server
      .stdout()
      .split("\n")
      .filter((line) => line.includes('"msg":"request"'))
      .map((line) => (JSON.parse(line) as { path: string }).path);
    expect(new Set(paths)).toEqual(new Set(["/healthz"]));
  });

  it("serves a signed-in page and the public files as before", async () => {
    const owner = await createUser();
    const organization = await createOrganizationWith([{ userId: owner.id, role: "owner" }]);
    const { token } = await createSession(owner.id, { twoFactorVerified: false, activeOrganizationId: organization.id });
    const page = await fetch(`${server.origin}/dashboard/organization-settings/api-keys`, { headers: { cookie: `session=${token}` } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(organization.name);
    const favicon = await fetch(`${server.origin}/favicon.svg`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get("content-type")).toContain("svg");
    // A page path that is not a file goes to the app, whatever it is encoded as.
    expect((await fetch(`${server.origin}/%66avicon.svg`)).status).toBe(200);
    expect((await fetch(`${server.origin}/no-such-file.svg`)).status).toBe(404);
    expect((await fetch(`${server.origin}/%E0%A4%A`)).status).toBeLessThan(500);
  });
});
