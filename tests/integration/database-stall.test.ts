// A database that is there but does not get on with the work (decision 0070): a lock other work
// holds, a statement that takes longer than the transaction around it. The errors that really
// arrive, from this PostgreSQL through pg and Prisma, and what the app makes of them: the database
// is unavailable for now (503 with Retry-After), not a fault of ours (500), and nothing is written.
// tests/production/database-stall.test.ts checks the answers over HTTP, the frozen server included.
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { LOCK_TIMEOUT_MS, prisma } from "~/db.server";
import { databaseUnavailableReason } from "~/lib/database-unavailable.server";
import { DomainError } from "~/lib/domain-error";
import { asDomainError } from "~/lib/known-errors.server";
import { createOrganizationWith, createUser, signedIn } from "../factories";
import { authenticateKey } from "~/api-keys/authenticate.server";
import { bearerSecret } from "~/api-keys/secret.server";
import { issueKey, revokeKey } from "../domain-calls";
import { untilWaitingForLock } from "../lock-waits";

const clients: pg.Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.end();
});

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  clients.push(client);
  return client;
}

async function owner() {
  const user = await createUser();
  const organization = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
  const { auth } = await signedIn(user.id, organization.id);
  return { auth, organizationId: organization.id };
}

/** `work` while another session holds api_keys in ACCESS EXCLUSIVE mode, as a migration's ALTER TABLE does. */
async function whileKeysLocked<T>(work: () => Promise<T>): Promise<T> {
  const holder = await connect();
  await holder.query("BEGIN");
  await holder.query("LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE");
  try {
    return await work();
  } finally {
    await holder.query("ROLLBACK");
  }
}

/** The error `promise` rejects with; a success fails the test. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("expected the call to fail"),
    (error: unknown) => error,
  );
}

async function timed(work: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await rejection(work());
  return { error, ms: performance.now() - started };
}

describe("a lock that other work holds", () => {
  it("ends an issue's wait after the lock timeout, inside the transaction's 5 s: unavailable (503), nothing written", async () => {
    const { auth, organizationId } = await owner();
    const eventsBefore = await prisma.auditEvent.count({ where: { organizationId } });
    const { error, ms } = await whileKeysLocked(() =>
      timed(() => issueKey(auth, organizationId, { name: "stalled", scopes: ["audit:view"] })),
    );
    expect(databaseUnavailableReason(error)).toBe("lockTimeout");
    expect(asDomainError(error)).toMatchObject({ code: "SERVICE_UNAVAILABLE", messageKey: "database.unavailable" });
    expect(ms).toBeGreaterThanOrEqual(LOCK_TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(5_000);
    expect(await prisma.apiKey.count({ where: { organizationId } })).toBe(0);
    expect(await prisma.auditEvent.count({ where: { organizationId } })).toBe(eventsBefore);
  });

  it("ends a revoke's wait for the key's row the same way, the key still in use", async () => {
    const { auth, organizationId } = await owner();
    const { key } = await issueKey(auth, organizationId, { name: "held", scopes: ["audit:view"] });
    const holder = await connect();
    await holder.query("BEGIN");
    await holder.query("SELECT 1 FROM api_keys WHERE id = $1 FOR UPDATE", [key.id]);
    try {
      const { error } = await timed(() => revokeKey(auth, organizationId, key.id));
      expect(databaseUnavailableReason(error)).toBe("lockTimeout");
    } finally {
      await holder.query("ROLLBACK");
    }
    expect((await prisma.apiKey.findFirstOrThrow({ where: { organizationId, id: key.id } })).revokedAt).toBeNull();
    expect(await prisma.auditEvent.count({ where: { organizationId, action: "api_key.revoked" } })).toBe(0);
  });

  it("ends authenticate's wait too, and a waiting writer of the same organization is not cut short by a short lock", async () => {
    const { auth, organizationId } = await owner();
    const { secret } = await issueKey(auth, organizationId, { name: "probe", scopes: ["audit:view"] });
    const { error } = await whileKeysLocked(() => timed(() => authenticateKey(bearerSecret(`Bearer ${secret}`)!, [])));
    expect(databaseUnavailableReason(error)).toBe("lockTimeout");

    // A lock held for less than the timeout is only waited for.
    const holder = await connect();
    await holder.query("BEGIN");
    await holder.query("LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE");
    const issuing = issueKey(auth, organizationId, { name: "waits", scopes: ["audit:view"] });
    await untilWaitingForLock(await connect(), "api_keys");
    await new Promise((resolve) => setTimeout(resolve, 500));
    await holder.query("ROLLBACK");
    expect((await issuing).key.name).toBe("waits");
  });
});

describe("a transaction that outlives its timeout while its statement runs", () => {
  it("is unavailable (503), not a fault of ours, and its work is rolled back", async () => {
    const { organizationId } = await owner();
    const error = await rejection(
      prisma.$transaction(async (tx) => {
        await tx.$executeRaw`UPDATE organizations SET name = 'renamed in a slow transaction' WHERE id = ${organizationId}::uuid`;
        // The database takes longer than the transaction's 5 s, as a frozen or overloaded server does.
        await tx.$executeRaw`SELECT pg_sleep(5.5)`;
        await tx.$queryRaw`SELECT 1`;
      }),
    );
    expect(databaseUnavailableReason(error)).toBe("transactionExpired");
    expect(asDomainError(error)).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect((await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } })).name).not.toBe("renamed in a slow transaction");
  }, 15_000);

  it("is unavailable (503) whatever the code then fails with: a result Prisma lost when it closed the transaction", async () => {
    // Seen under a frozen database: Prisma closed the expired transaction under a running `create`,
    // which then answered null, and the code reading the new key's name threw a TypeError.
    const error = await rejection(
      prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_sleep(5.2)`;
        const created = null as { name: string } | null;
        return created!.name;
      }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(databaseUnavailableReason(error)).toBe("transactionExpired");
    expect(asDomainError(error)).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  }, 15_000);

  it("stays what it was when it failed in time, and a refusal stays a refusal after the timeout", async () => {
    const quick = await rejection(
      prisma.$transaction(async () => {
        throw new TypeError("a fault of ours");
      }),
    );
    expect(databaseUnavailableReason(quick)).toBeNull();
    const refusal = await rejection(
      prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_sleep(5.2)`;
        throw new DomainError("CONFLICT", "apiKey.nameTaken");
      }),
    );
    expect(asDomainError(refusal)).toMatchObject({ code: "CONFLICT", messageKey: "apiKey.nameTaken" });
  }, 15_000);
});
