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

  it("expires an unused session after the idle timeout", async () => {
    const user = await createUser();
    const start = new Date("2026-01-01T00:00:00Z");
    const { token } = await createSession(user.id, { twoFactorVerified: false, now: start });
    expect(await validateSessionToken(token, new Date(start.getTime() + SESSION_IDLE_TIMEOUT + 1))).toBeNull();
  });
});
