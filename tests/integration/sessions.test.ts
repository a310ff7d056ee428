import pg from "pg";
import { describe, expect, it } from "vitest";
import { prisma } from "~/db.server";
import {
  SESSION_ABSOLUTE_LIFETIME,
  SESSION_IDLE_TIMEOUT,
  createSession,
  sessionIdFromToken,
  validateSessionToken,
} from "~/auth/session.server";
import { createUser } from "../factories";

describe("sessions", () => {
  it("stores only the SHA-256 of the token", async () => {
    const user = await createUser();
    const { token } = await createSession(user.id, { twoFactorVerified: false });
    const rows = await prisma.session.findMany({ where: { userId: user.id }, select: { id: true } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(sessionIdFromToken(token));
    expect(rows[0]!.id).not.toContain(token);
  });

  it("treats a session signed out between its read and its renewal as no session, not an error", async () => {
    // Another tab signs out (or deletes the account) while this request renews the session: the
    // renewal queues on the row held by the sign-out, which then deletes it. That was a P2025 (500).
    const user = await createUser();
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    const { token } = await createSession(user.id, { twoFactorVerified: false, now: hourAgo });
    const signOut = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await signOut.connect();
    try {
      await signOut.query("BEGIN");
      await signOut.query("SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE", [sessionIdFromToken(token)]);
      const pid = ((await signOut.query("SELECT pg_backend_pid() AS pid")).rows[0] as { pid: number }).pid;
      const validation = validateSessionToken(token);
      for (let waited = 0; ; waited += 20) {
        const { rows } = await signOut.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", [
          pid,
        ]);
        if ((rows[0] as { n: number }).n > 0) break;
        if (waited > 10_000) throw new Error("the renewal never queued on the session's row");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await signOut.query("DELETE FROM sessions WHERE id = $1", [sessionIdFromToken(token)]);
      await signOut.query("COMMIT");
      expect(await validation).toBeNull();
    } finally {
      await signOut.end();
    }
  });

  it("rejects forged, malformed and unknown tokens without error", async () => {
    for (const token of ["", "x", "a".repeat(32), "A".repeat(32), "💥".repeat(20), "a".repeat(100_000)]) {
      expect(await validateSessionToken(token)).toBeNull();
    }
  });

  it("slides the idle expiry forward but never past the absolute expiry", async () => {
    const user = await createUser();
    const start = new Date("2026-01-01T00:00:00Z");
    const { token } = await createSession(user.id, { twoFactorVerified: false, now: start });
    const later = new Date(start.getTime() + SESSION_IDLE_TIMEOUT - 60_000);
    const auth = await validateSessionToken(token, later);
    expect(auth).not.toBeNull();
    expect(auth!.session.expiresAt.getTime()).toBe(later.getTime() + SESSION_IDLE_TIMEOUT);
    const nearEnd = new Date(start.getTime() + SESSION_ABSOLUTE_LIFETIME - 60_000);
    // Keep it alive by using it within each idle window until close to the absolute limit.
    for (let t = later.getTime(); t < nearEnd.getTime(); t += SESSION_IDLE_TIMEOUT - 60_000) {
      expect(await validateSessionToken(token, new Date(t))).not.toBeNull();
    }
    const renewed = await validateSessionToken(token, nearEnd);
    expect(renewed!.session.expiresAt.getTime()).toBeLessThanOrEqual(start.getTime() + SESSION_ABSOLUTE_LIFETIME);
    expect(await validateSessionToken(token, new Date(start.getTime() + SESSION_ABSOLUTE_LIFETIME))).toBeNull();
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(0);
  });

  it("stops writing the session row once its idle expiry has reached the absolute one", async () => {
    const user = await createUser();
    const start = new Date("2026-01-01T00:00:00Z");
    const { token, session } = await createSession(user.id, { twoFactorVerified: false, now: start });
    // xmin is the transaction that last wrote the row: any UPDATE, even of equal values, changes it.
    const version = async () =>
      (await prisma.$queryRaw<{ xmin: string }[]>`SELECT xmin::text FROM sessions WHERE id = ${session.id}`)[0]!.xmin;
    const lastDays = new Date(start.getTime() + SESSION_ABSOLUTE_LIFETIME - SESSION_IDLE_TIMEOUT / 2);
    // Kept alive within each idle window up to the last days of its absolute lifetime.
    for (let t = start.getTime() + SESSION_IDLE_TIMEOUT / 2; t < lastDays.getTime(); t += SESSION_IDLE_TIMEOUT / 2) {
      expect(await validateSessionToken(token, new Date(t))).not.toBeNull();
    }
    const capped = await validateSessionToken(token, lastDays);
    expect(capped!.session.expiresAt.getTime()).toBe(start.getTime() + SESSION_ABSOLUTE_LIFETIME);
    const before = await version();
    for (let minutes = 1; minutes <= 3; minutes++) {
      expect(await validateSessionToken(token, new Date(lastDays.getTime() + minutes * 60_000))).not.toBeNull();
    }
    expect(await version()).toBe(before);
  });

  it("expires an unused session after the idle timeout", async () => {
    const user = await createUser();
    const start = new Date("2026-01-01T00:00:00Z");
    const { token } = await createSession(user.id, { twoFactorVerified: false, now: start });
    expect(await validateSessionToken(token, new Date(start.getTime() + SESSION_IDLE_TIMEOUT + 1))).toBeNull();
  });
});
