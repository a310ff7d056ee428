// Races and load around members, invitations and organization settings: requests that overlap a
// deletion, a slow mail server, a burst bigger than the connection pool. Each of these answered 500
// once (a second reader found them). Real PostgreSQL (this file's own database) and a real SMTP
// server whose answer can be slowed down.
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { queryOnce } from "../../scripts/lib/pg-client.ts";
import { startInProcessServer } from "../app-server";
import { failure } from "../failure";

// A mail server that accepts every message, `smtpDelayMs` after the client finished sending it
// (a slow or tarpitting server; the mailer's own timeouts allow 10 s + 10 s + 20 s).
let smtpDelayMs = 0;
let messagesStarted = 0;
const smtpPort = await freePort();
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, _session, callback) {
    messagesStarted++;
    stream.resume();
    stream.on("end", () => setTimeout(() => callback(), smtpDelayMs));
  },
});
await new Promise<void>((resolve) => smtp.listen(smtpPort, "127.0.0.1", () => resolve()));
// Before anything reads the configuration.
process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;

const { authorizeOrganization } = await import("~/access/organization-access.server");
const { prisma } = await import("~/db.server");
const { runDueJobs } = await import("~/jobs/queue.server");
const invitations = await import("~/organizations/invitations.server");
const { storeLogo } = await import("~/organizations/logos.server");
const { deleteOrganization } = await import("~/organizations/organizations.server");
const { organizationTasks } = await import("~/organizations/tasks.server");
const { createOrganizationWith, createUser, signedIn } = await import("../factories");
const { IMAGES } = await import("../images");
const { call } = await import("../rpc");

afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

const delivery = { language: "en" as const, origin: "https://keys.example.com" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(async () => {
  smtpDelayMs = 0;
  await prisma.$executeRaw`DELETE FROM graphile_worker._private_jobs`;
  await prisma.$executeRaw`DELETE FROM rate_limits`;
});

async function ownedOrganization() {
  const owner = await createUser({ name: "Olga Owner" });
  const org = await createOrganizationWith([{ userId: owner.id, role: "owner" }]);
  const session = await signedIn(owner.id, org.id);
  return { owner, org, ...session };
}

/** A connection outside the app's pool that holds the organization's row lock until released,
 * so that requests started meanwhile pass their access check and then queue on the lock. */
async function holdOrganizationLock(organizationId: string) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query("BEGIN");
  await client.query("SELECT 1 FROM organizations WHERE id = $1 FOR NO KEY UPDATE", [organizationId]);
  return async () => {
    await client.query("COMMIT");
    await client.end();
  };
}

describe("invitations and the connection pool", () => {
  // The rate limiter takes its own pooled connection. Taken inside the invite's transaction (which
  // holds a connection and the organization's row lock), it deadlocked the pool: with as many concurrent invites as the pool has
  // connections, the lock holder waits for a second connection that the others (queued on the lock,
  // each holding one) never give back: everything stalls until Prisma's 5 s transaction timeout, and
  // nearly every request failed with an unmapped Prisma error (500). Meanwhile every other request of
  // the process, any tenant, waits for a connection too.
  it("as many simultaneous invites as the pool has connections all succeed", async () => {
    const { org, token } = await ownedOrganization();
    // Two inviters, so the per-inviter budget (20 an hour) is never the reason for a refusal.
    const second = await createUser();
    await prisma.membership.create({ data: { organizationId: org.id, userId: second.id, role: "owner" } });
    const secondSession = await signedIn(second.id, org.id);
    const count = Number(process.env.DATABASE_POOL_SIZE ?? 10) + 2;
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        call("organization/inviteMember", i % 2 === 0 ? token : secondSession.token, {
          organizationId: org.id,
          email: `bulk-${i}@example.com`,
          role: "member",
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: count }, () => 200));
    expect(await prisma.invitation.count({ where: { organizationId: org.id } })).toBe(count);
  });
});

describe("the mail job and a slow mail server", () => {
  // The mail job once held the invitation's row lock for the whole SMTP exchange, and the mailer
  // allows 10 s to connect, 10 s for the greeting and 20 s of socket silence. cancel/accept/resend/delete run in Prisma interactive transactions with the default 5 s
  // timeout, so they did not wait: any send slower than 5 s turned them into a P2028 "expired
  // transaction" error, i.e. a 500, with nothing changed (and everything queued behind them on the
  // organization's lock failed the same way).
  it("canceling while a slow mail server is accepting the invitation mail cancels at once (not 500)", async () => {
    const { org, token, auth } = await ownedOrganization();
    const manager = await authorizeOrganization(auth, org.id, "member:manage");
    const { invitation } = await invitations.inviteMember(manager, { email: `slow-${Date.now()}@example.com`, role: "member" }, delivery);
    smtpDelayMs = 7_000;
    const before = messagesStarted;
    const job = runDueJobs(organizationTasks);
    while (messagesStarted === before) await sleep(20); // the mail server is taking the message now
    const answer = await call("organization/cancelInvitation", token, { organizationId: org.id, invitationId: invitation.id });
    await job;
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ id: invitation.id, status: "canceled" });
    const after = await prisma.invitation.findUniqueOrThrow({
      where: { organizationId_id: { organizationId: org.id, id: invitation.id } },
    });
    expect(after.status).toBe("canceled");
    // The mail went out, but the cancel won: its link was never stored, so it does not work.
    expect(after.tokenHash).toBeNull();
  }, 30_000);
});

describe("an organization deleted while a request about it is under way", () => {
  // deleteOrganization once ignored that the locked row was gone and then called findUniqueOrThrow. A second delete that passed its access check before the first committed
  // (a double-clicked "Delete" button, a retried request) gets a Prisma "record not found" error,
  // answered 500, instead of 404.
  it("two simultaneous deletes: one succeeds, the other is a 404, never a 500", async () => {
    const { org, token } = await ownedOrganization();
    const release = await holdOrganizationLock(org.id);
    const first = call("organization/delete", token, { organizationId: org.id, confirmName: org.name });
    await sleep(300);
    const second = call("organization/delete", token, { organizationId: org.id, confirmName: org.name });
    await sleep(300);
    await release();
    const statuses = (await Promise.all([first, second])).map((a) => a.status);
    expect(statuses).toEqual([200, 404]);
  });

  // Same cause, in updateOrganizationSettings: saving the settings while an owner deletes the
  // organization answered 500 (P2025 from findUniqueOrThrow after the lock found no row).
  it("saving settings while the organization is being deleted is a 404, never a 500", async () => {
    const { org, token } = await ownedOrganization();
    const release = await holdOrganizationLock(org.id);
    const deletion = call("organization/delete", token, { organizationId: org.id, confirmName: org.name });
    await sleep(300);
    const update = call("organization/update", token, { organizationId: org.id, name: "Renamed meanwhile" });
    await sleep(300);
    await release();
    expect((await deletion).status).toBe(200);
    expect((await update).status).toBe(404);
  });

  // Rotating or revoking a key locked the key and then, for its audit event, referenced the
  // organization, while the deletion locked the organization and then cascaded into its keys: a
  // deadlock, one side answered 500 (a hostile-input hunt hit it 7 times in 8). Key changes now
  // queue on the organization's row first, like every other change to the organization.
  it("rotating or revoking a key while the organization is deleted is a 200 or a 404, never a 500", async () => {
    for (let round = 0; round < 6; round++) {
      const { org, token } = await ownedOrganization();
      const issued = await call("apiKey/issue", token, { organizationId: org.id, name: `key ${round}`, scopes: ["audit:view"] });
      expect(issued.status).toBe(200);
      const keyId = (issued.json as { key: { id: string } }).key.id;
      const change = round % 2 === 0 ? "apiKey/rotate" : "apiKey/revoke";
      const [deletion, keyChange] = await Promise.all([
        call("organization/delete", token, { organizationId: org.id, confirmName: org.name }),
        call(change, token, { organizationId: org.id, keyId }),
      ]);
      expect(deletion.status, `round ${round}`).toBe(200);
      expect([200, 404], `round ${round}: ${change} answered ${keyChange.status}`).toContain(keyChange.status);
    }
  });

  // storeLogo once took no lock and did not handle the organization disappearing. POST /api/organizations/:id/logos (and the settings page) authorize, then sniff
  // the bytes and spend the rate limit; if the organization is deleted meanwhile, the insert fails
  // on the foreign key with a raw Prisma error (500) instead of a 404.
  it("a logo upload whose organization was deleted after the access check is a 404, not a raw database error", async () => {
    const { org, auth } = await ownedOrganization();
    const uploader = await authorizeOrganization(auth, org.id, "organization:update");
    await deleteOrganization(await authorizeOrganization(auth, org.id, "organization:delete"), auth, org.name);
    expect(await failure(storeLogo(uploader, IMAGES.png))).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("logo pruning and the settings", () => {
  // storeLogo once pruned old uploads without the organization's lock, while updateOrganizationSettings checks that the chosen logo exists and then
  // sets it. When an admin sets an earlier upload (organization.update {logoId}) while another
  // upload prunes exactly that one, the check passes, the UPDATE's foreign-key check waits for the
  // prune and then fails: a raw P2003 error (500) instead of "logo not found" (404) or success.
  // (Here a statement trigger only widens the prune's window between DELETE and COMMIT.)
  it("setting an earlier upload while another upload prunes it is a 404 or works, never a 500", async () => {
    const { org, token, auth } = await ownedOrganization();
    const updater = await authorizeOrganization(auth, org.id, "organization:update");
    const earlier = await storeLogo(updater, IMAGES.png);
    await sleep(5);
    for (let i = 0; i < 4; i++) {
      await storeLogo(updater, IMAGES.jpeg);
      await sleep(5);
    }
    // As the tables' owner: the app's role may not create triggers (decision 0049).
    const asOwner = (sql: string) => queryOnce(process.env.DATABASE_URL!, sql);
    await asOwner(`CREATE FUNCTION slow_prune() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(1.5); RETURN NULL; END $$`);
    await asOwner(`CREATE TRIGGER slow_prune AFTER DELETE ON organization_logos FOR EACH STATEMENT EXECUTE FUNCTION slow_prune()`);
    try {
      // The sixth upload prunes `earlier` (not in use, not among the five newest)…
      const upload = storeLogo(updater, IMAGES.webp);
      await sleep(500);
      // …while the settings pick exactly that upload.
      const answer = await call("organization/update", token, { organizationId: org.id, logoId: earlier.id });
      await upload;
      expect([200, 404]).toContain(answer.status);
    } finally {
      await asOwner(`DROP TRIGGER slow_prune ON organization_logos`);
      await asOwner(`DROP FUNCTION slow_prune()`);
    }
  });
});

describe("an account deleted while one of its requests is under way", () => {
  // The deletion holds the account's row (FOR UPDATE) and then removes it with its sessions. A
  // request of that account already past its session check (another tab creating an organization)
  // then queues on the row for its membership insert and fails its foreign key when the deletion
  // commits. That was an unmapped Prisma error (500); it is a conflict, said in the caller's language.
  async function holdAccountForDeletion(userId: string) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query("BEGIN");
    await client.query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", [userId]);
    const pid = ((await client.query("SELECT pg_backend_pid() AS pid")).rows[0] as { pid: number }).pid;
    let open = true;
    const close = async (statement: string) => {
      if (!open) return;
      open = false;
      await client.query(statement);
      await client.end();
    };
    return {
      /** Resolves once a request is queued behind this connection's lock (other test files share
       * the server, so only waiters blocked by this backend count); fails after 10 s. */
      waitForWaiter: async () => {
        const deadline = Date.now() + 10_000;
        for (;;) {
          const { rows } = await client.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", [
            pid,
          ]);
          if ((rows[0] as { n: number }).n > 0) return;
          if (Date.now() > deadline) throw new Error("no request queued on the account's row");
          await sleep(20);
        }
      },
      deleteAndCommit: async () => {
        await client.query("DELETE FROM users WHERE id = $1", [userId]);
        await close("COMMIT");
      },
      /** For `finally`: lets go of the row if the test failed before deleting. */
      release: () => close("ROLLBACK"),
    };
  }

  it("creating an organization through /rpc answers 409, and nothing is created", async () => {
    const user = await createUser();
    const { token } = await signedIn(user.id);
    const deletion = await holdAccountForDeletion(user.id);
    const name = `Vanishing ${Date.now()}`;
    const answer = call("organization/create", token, { name }, { "accept-language": "de" });
    try {
      await deletion.waitForWaiter();
      await deletion.deleteAndCommit();
    } finally {
      await deletion.release();
    }
    const { status, json } = await answer;
    expect(status).toBe(409);
    expect(json).toMatchObject({ code: "CONFLICT", message: expect.stringContaining("inzwischen") });
    expect(await prisma.organization.count({ where: { name } })).toBe(0);
  });

  it("creating an organization with the page's form answers 409 with the form's message, and nothing is created", async () => {
    const server = await startInProcessServer();
    try {
      const user = await createUser();
      const { token } = await signedIn(user.id);
      const deletion = await holdAccountForDeletion(user.id);
      const name = `Vanishing page ${Date.now()}`;
      const answer = fetch(`${server.origin}/dashboard/organizations/new`, {
        method: "POST",
        redirect: "manual",
        headers: {
          Cookie: `session=${token}`,
          Origin: server.origin,
          "Sec-Fetch-Site": "same-origin",
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ name }).toString(),
      });
      try {
        await deletion.waitForWaiter();
        await deletion.deleteAndCommit();
      } finally {
        await deletion.release();
      }
      const response = await answer;
      expect(response.status).toBe(409);
      expect(await response.text()).toContain("removed meanwhile");
      expect(await prisma.organization.count({ where: { name } })).toBe(0);
    } finally {
      await server.close();
    }
  });
});
