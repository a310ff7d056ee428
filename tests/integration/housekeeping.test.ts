// The daily housekeeping job on the real database: exactly the ended rows go, the live ones stay,
// a second run finds nothing, and the worker registers the cron item.
import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { prisma } from "~/db.server";
import { recordAuditEvent } from "~/audit/record.server";
import {
  FAILED_JOB_RETENTION,
  HOUSEKEEPING_CRON,
  HOUSEKEEPING_TASK,
  INVITATION_LINK_GRACE,
  runHousekeeping,
  UNVERIFIED_ACCOUNT_RETENTION,
} from "~/jobs/housekeeping.server";
import { runDueJobs, startWorker } from "~/jobs/queue.server";
import { createInvitationWithLink, createOrganizationWith, createUser } from "../factories";

const DAY = 24 * 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);
const fromNow = (ms: number) => new Date(Date.now() + ms);
const hex = () => randomBytes(32).toString("hex");

async function session(userId: string, expiresAt: Date) {
  const id = hex();
  await prisma.session.create({
    data: { id, userId, expiresAt, absoluteExpiresAt: new Date(expiresAt.getTime() + DAY), authenticatedAt: ago(DAY) },
  });
  return id;
}

async function unverifiedAccount(createdAt: Date, extra: { isPlatformAdmin?: boolean; deletedAt?: Date } = {}) {
  const user = await createUser({ verified: false, isPlatformAdmin: extra.isPlatformAdmin, twoFactor: false });
  await prisma.user.update({ where: { id: user.id }, data: { createdAt, deletedAt: extra.deletedAt ?? null } });
  return user.id;
}

async function failedJob(updatedAt: Date, failed: boolean) {
  const [job] = await prisma.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM graphile_worker.add_job('housekeeping-test-job', '{}'::json, max_attempts => 1, run_at => now() + interval '1 year')`;
  await prisma.$executeRaw`
    UPDATE graphile_worker._private_jobs SET attempts = ${failed ? 1 : 0}, updated_at = ${updatedAt}, last_error = 'boom' WHERE id = ${job!.id}`;
  return job!.id;
}

const exists = {
  user: async (id: string) => (await prisma.user.count({ where: { id } })) === 1,
  session: async (id: string) => (await prisma.session.count({ where: { id } })) === 1,
  job: async (id: bigint) => (await prisma.$queryRaw<unknown[]>`SELECT 1 FROM graphile_worker.jobs WHERE id = ${id}`).length === 1,
};

describe("housekeeping", () => {
  it("purges exactly what has ended, keeps the rest, and a second run purges nothing", async () => {
    const owner = await createUser();
    const organization = await createOrganizationWith([{ userId: owner.id, role: "owner" }]);

    const ended = await session(owner.id, ago(60_000));
    const live = await session(owner.id, fromNow(DAY));
    // More than one batch of ended sessions: every batch goes.
    await prisma.$executeRaw`
      INSERT INTO sessions (id, user_id, expires_at, absolute_expires_at, authenticated_at)
      SELECT md5(random()::text || g), ${owner.id}::uuid, now() - interval '1 day', now(), now() - interval '2 days'
        FROM generate_series(1, 2100) g`;

    // One link per account and kind: expired for one account, live for another.
    const other = await createUser();
    for (const [userId, expiresAt] of [
      [owner.id, ago(60_000)],
      [other.id, fromNow(DAY)],
    ] as const) {
      await prisma.passwordReset.create({ data: { userId, tokenHash: hex(), expiresAt } });
      await prisma.emailVerification.create({ data: { userId, email: "x@example.test", tokenHash: hex(), expiresAt } });
      await prisma.emailChange.create({ data: { userId, newEmail: `${randomUUID()}@example.test`, tokenHash: hex(), expiresAt } });
    }

    const invitation = (expiresAt: Date) =>
      createInvitationWithLink({
        organizationId: organization.id,
        email: `${randomUUID()}@example.test`,
        role: "member",
        expiresAt,
        tokenHash: new Uint8Array(randomBytes(32)),
        invitedById: owner.id,
      });
    const longExpired = await invitation(ago(INVITATION_LINK_GRACE + DAY));
    const recentlyExpired = await invitation(ago(DAY));
    const pending = await invitation(fromNow(7 * DAY));

    const old = ago(UNVERIFIED_ACCOUNT_RETENTION + DAY);
    const abandoned = await unverifiedAccount(old);
    const young = await unverifiedAccount(ago(DAY));
    const member = await unverifiedAccount(old);
    await prisma.membership.create({ data: { organizationId: organization.id, userId: member, role: "member" } });
    const audited = await unverifiedAccount(old);
    await prisma.$transaction((tx) =>
      recordAuditEvent(tx, {
        organizationId: organization.id,
        action: "member.removed",
        actor: { kind: "user", id: owner.id },
        target: { type: "user", id: audited },
        details: { role: "member", reason: "removed" },
      }),
    );
    const signedIn = await unverifiedAccount(old);
    await session(signedIn, fromNow(DAY));
    const deleted = await unverifiedAccount(old, { deletedAt: ago(DAY) });
    const admin = await unverifiedAccount(old, { isPlatformAdmin: true });
    const inviter = await unverifiedAccount(old);
    await prisma.invitation.create({
      data: {
        organizationId: organization.id,
        email: `${randomUUID()}@example.test`,
        role: "member",
        expiresAt: fromNow(DAY),
        invitedById: inviter,
      },
    });

    const nowMs = Date.now();
    await prisma.rateLimit.createMany({
      data: [
        { key: "test:ended", points: 3, expire: BigInt(nowMs - 60_000) },
        { key: "test:live", points: 3, expire: BigInt(nowMs + 60_000) },
        { key: "test:forever", points: 3, expire: null },
      ],
    });

    const oldFailure = await failedJob(ago(FAILED_JOB_RETENTION + DAY), true);
    const recentFailure = await failedJob(ago(DAY), true);
    const stillTrying = await failedJob(ago(FAILED_JOB_RETENTION + DAY), false);

    // Through the queue, as the cron job runs it.
    await prisma.$executeRaw`SELECT graphile_worker.add_job(${HOUSEKEEPING_TASK}, '{}'::json)`;
    await runDueJobs({});

    expect(await exists.session(ended)).toBe(false);
    expect(await exists.session(live)).toBe(true);
    expect(await prisma.session.count({ where: { userId: owner.id } })).toBe(1);

    for (const table of [prisma.passwordReset, prisma.emailVerification, prisma.emailChange] as const) {
      const rows = await (table as typeof prisma.passwordReset).findMany({
        where: { userId: { in: [owner.id, other.id] } },
        select: { userId: true },
      });
      expect(rows.map((r) => r.userId)).toEqual([other.id]);
    }

    const hashes = await prisma.invitation.findMany({
      where: { organizationId: organization.id, id: { in: [longExpired.id, recentlyExpired.id, pending.id] } },
      select: { id: true, tokenHash: true, status: true },
    });
    const byId = new Map(hashes.map((h) => [h.id, h]));
    expect(byId.get(longExpired.id)).toMatchObject({ tokenHash: null, status: "pending" });
    expect(byId.get(recentlyExpired.id)?.tokenHash).not.toBeNull();
    expect(byId.get(pending.id)?.tokenHash).not.toBeNull();

    expect(await exists.user(abandoned)).toBe(false);
    for (const kept of [young, member, audited, signedIn, deleted, admin, inviter, owner.id, other.id]) {
      expect(await exists.user(kept)).toBe(true);
    }

    expect(
      (await prisma.rateLimit.findMany({ where: { key: { startsWith: "test:" } }, orderBy: { key: "asc" } })).map((r) => r.key),
    ).toEqual(["test:forever", "test:live"]);

    expect(await exists.job(oldFailure)).toBe(false);
    expect(await exists.job(recentFailure)).toBe(true);
    expect(await exists.job(stillTrying)).toBe(true);
    // The housekeeping job itself completed and is gone.
    expect(await prisma.$queryRaw`SELECT 1 FROM graphile_worker.jobs WHERE task_identifier = ${HOUSEKEEPING_TASK}`).toEqual([]);

    expect(await runHousekeeping()).toEqual({
      sessions: 0,
      passwordResets: 0,
      emailVerifications: 0,
      emailChanges: 0,
      invitationLinks: 0,
      unverifiedAccounts: 0,
      rateLimits: 0,
      failedJobs: 0,
    });
  });

  it("is in the worker's crontab, daily, with a job key", async () => {
    expect(HOUSEKEEPING_CRON).toHaveLength(1);
    expect(HOUSEKEEPING_CRON[0]).toMatchObject({
      task: HOUSEKEEPING_TASK,
      identifier: HOUSEKEEPING_TASK,
      options: { jobKey: HOUSEKEEPING_TASK },
    });
    const runner = await startWorker({});
    try {
      // The worker's cron registers each item it schedules when it starts.
      for (;;) {
        const known = await prisma.$queryRaw<{ identifier: string }[]>`SELECT identifier FROM graphile_worker._private_known_crontabs`;
        if (known.some((k) => k.identifier === HOUSEKEEPING_TASK)) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await runner.stop();
    }
  });
});
