// The account's own security through the real RPC handler and database: changing the password
// (current one required, other sessions end, rate limited) and the session list (only one's own,
// device and address as at sign-in, "last seen" kept without a write per request).
import { describe, expect, it } from "vitest";
import { prisma } from "~/db.server";
import { signIn } from "~/auth/sign-in.server";
import { createSession, validateSessionToken } from "~/auth/session.server";
import { callRpc } from "../api-key-factories";
import { createUser, signedIn, TEST_PASSWORD } from "../factories";

const NEW_PASSWORD = "another-long-enough-password";
const change = (token: string, input: unknown) => callRpc("account/changePassword", { sessionToken: token, input });

describe("account.changePassword", () => {
  it("needs the current password, ends every other session and keeps this one", async () => {
    const user = await createUser();
    const here = await signedIn(user.id);
    const elsewhere = await signedIn(user.id);
    const stranger = await signedIn((await createUser()).id);

    const wrong = await change(here.token, { currentPassword: "not-my-password", newPassword: NEW_PASSWORD });
    expect([wrong.status, wrong.json.message]).toEqual([400, "The current password is incorrect."]);
    const same = await change(here.token, { currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD });
    expect([same.status, same.json.message]).toEqual([400, "Choose a new password that differs from the current one."]);
    for (const input of [
      { currentPassword: TEST_PASSWORD, newPassword: "short" },
      { currentPassword: TEST_PASSWORD, newPassword: "x".repeat(10_000) },
      { currentPassword: TEST_PASSWORD },
      { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD, extra: true },
      { currentPassword: 42, newPassword: NEW_PASSWORD },
    ]) {
      expect((await change(here.token, input)).status, JSON.stringify(input).slice(0, 80)).toBe(400);
    }
    // Nothing changed yet: the old password still signs in, the other sessions still work.
    expect(await validateSessionToken(elsewhere.token)).not.toBeNull();
    await expect(signIn({ email: user.email, password: TEST_PASSWORD }, "10.0.0.1")).resolves.toBeTruthy();

    expect(await change(here.token, { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD })).toMatchObject({
      status: 200,
      json: {},
    });
    expect(await validateSessionToken(here.token)).not.toBeNull();
    expect(await validateSessionToken(elsewhere.token)).toBeNull();
    expect(await validateSessionToken(stranger.token)).not.toBeNull();
    await expect(signIn({ email: user.email, password: TEST_PASSWORD }, "10.0.0.2")).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(signIn({ email: user.email, password: NEW_PASSWORD }, "10.0.0.3")).resolves.toBeTruthy();
    // Signed out or from another site: refused before anything is read.
    expect((await callRpc("account/changePassword", { input: { currentPassword: NEW_PASSWORD, newPassword: TEST_PASSWORD } })).status).toBe(
      401,
    );
    expect(
      (
        await callRpc("account/changePassword", {
          sessionToken: here.token,
          input: { currentPassword: NEW_PASSWORD, newPassword: TEST_PASSWORD },
          headers: { "sec-fetch-site": "cross-site" },
        })
      ).status,
    ).toBe(403);
  });

  it("limits guesses of the current password like sign-in does", async () => {
    const user = await createUser();
    const { token } = await signedIn(user.id);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await change(token, { currentPassword: `guess-${i}`, newPassword: NEW_PASSWORD })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses[10]).toBe(429);
    // Even the right password waits now.
    expect((await change(token, { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(429);
  });
});

describe("account.sessions and account.revokeSession", () => {
  it("lists only the account's live sessions with device and address, this one first", async () => {
    const user = await createUser();
    const here = await createSession(user.id, {
      twoFactorVerified: false,
      device: { userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0\u0000\u001b[31m", address: "203.0.113.7" },
    });
    const phone = await createSession(user.id, {
      twoFactorVerified: false,
      device: { userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1", address: "198.51.100.4" },
    });
    const old = await createSession(user.id, { twoFactorVerified: false, now: new Date(Date.now() - 40 * 24 * 3600 * 1000) });
    await signedIn((await createUser()).id);

    const answer = await callRpc("account/sessions", { sessionToken: here.token, input: {} });
    expect(answer.status).toBe(200);
    const sessions = answer.json as unknown as { id: string; current: boolean; userAgent: string | null; address: string | null }[];
    expect(sessions.map((s) => [s.id, s.current, s.userAgent, s.address])).toEqual([
      [here.session.id, true, "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0[31m", "203.0.113.7"],
      [phone.session.id, false, "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1", "198.51.100.4"],
    ]);
    expect(sessions.map((s) => s.id)).not.toContain(old.session.id);
  });

  it("ends one of the account's own sessions, and nobody else's", async () => {
    const user = await createUser();
    const here = await signedIn(user.id);
    const other = await signedIn(user.id);
    const stranger = await signedIn((await createUser()).id);
    const revoke = (sessionId: unknown) => callRpc("account/revokeSession", { sessionToken: here.token, input: { sessionId } });

    const foreign = await revoke(stranger.auth.session.id);
    expect([foreign.status, foreign.json.message]).toEqual([404, "This session has already ended."]);
    expect(await validateSessionToken(stranger.token)).not.toBeNull();
    for (const bad of ["", "x".repeat(129), 7, null]) expect((await revoke(bad)).status).toBeGreaterThanOrEqual(400);

    expect((await revoke(other.auth.session.id)).status).toBe(200);
    expect(await validateSessionToken(other.token)).toBeNull();
    expect((await revoke(other.auth.session.id)).status).toBe(404);
    expect(await validateSessionToken(here.token)).not.toBeNull();
  });

  it("keeps 'last seen' to within minutes, with one write per session every few minutes", async () => {
    const user = await createUser();
    const start = new Date(Date.now() - 60 * 60 * 1000);
    const { token, session } = await createSession(user.id, { twoFactorVerified: false, now: start });
    const seen = async () => (await prisma.session.findUniqueOrThrow({ where: { id: session.id } })).lastSeenAt.getTime();
    await validateSessionToken(token, new Date(start.getTime() + 60 * 1000));
    expect(await seen()).toBe(start.getTime());
    const later = new Date(start.getTime() + 6 * 60 * 1000);
    await validateSessionToken(token, later);
    expect(await seen()).toBe(later.getTime());
  });
});
