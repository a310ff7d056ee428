// A person's own account: changing the password, and the list of their signed-in sessions with
// a way to end the ones they do not recognize (docs/decisions/0027-account-security.md).
import { prisma } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import { consume, reset } from "~/lib/rate-limit.server";
import { hashPassword, verifyPassword } from "~/auth/password.server";
import type { Auth } from "~/auth/session.server";

/**
 * Whether `password` is the signed-in account's, for a step that asks for it again (changing it,
 * deleting the account). Attempts, right or wrong, count against `auth.password.user`, so these
 * forms guess no faster than sign-in.
 */
export async function accountPasswordMatches(auth: Auth, password: string): Promise<boolean> {
  await consume("auth.password.user", auth.user.id);
  const user = await prisma.user.findUnique({ where: { id: auth.user.id }, select: { passwordHash: true } });
  if (!user) throw new DomainError("UNAUTHORIZED", "unauthenticated");
  return verifyPassword(user.passwordHash, password);
}

/** The account's sessions but this one. */
const otherSessionsOf = (auth: Auth) => ({ userId: auth.user.id, id: { not: auth.session.id } });

/**
 * The current password proves it is them (a session left open on someone else's screen must not
 * be enough); the new one replaces it and every other session of the account ends, so whoever
 * knew the old password is signed out everywhere. This session stays signed in. Returns how many
 * sessions ended.
 */
export async function changePassword(auth: Auth, input: { currentPassword: string; newPassword: string }): Promise<number> {
  if (!(await accountPasswordMatches(auth, input.currentPassword))) throw new DomainError("BAD_REQUEST", "account.wrongPassword");
  if (input.newPassword === input.currentPassword) throw new DomainError("BAD_REQUEST", "account.samePassword");
  const newHash = await hashPassword(input.newPassword);
  const [, signedOut] = await prisma.$transaction([
    prisma.user.update({ where: { id: auth.user.id }, data: { passwordHash: newHash }, select: { id: true } }),
    prisma.session.deleteMany({ where: otherSessionsOf(auth) }),
  ]);
  await reset("auth.password.user", auth.user.id);
  return signedOut.count;
}

export interface AccountSession {
  id: string;
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string | null;
  address: string | null;
}

/** The account's sessions that have not expired, this one first, then the most recently used. */
export async function listSessions(auth: Auth, now = new Date()): Promise<AccountSession[]> {
  const sessions = await prisma.session.findMany({
    where: { userId: auth.user.id, expiresAt: { gt: now }, absoluteExpiresAt: { gt: now } },
    select: { id: true, createdAt: true, lastSeenAt: true, userAgent: true, ipAddress: true },
    orderBy: [{ lastSeenAt: "desc" }, { id: "asc" }],
  });
  return sessions
    .map((s) => ({
      id: s.id,
      current: s.id === auth.session.id,
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
      userAgent: s.userAgent,
      address: s.ipAddress,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Ends one of the account's own sessions (this one too: that signs this browser out). Another
 * account's session id, or one that has ended, is "not found". */
export async function revokeSession(auth: Auth, sessionId: string): Promise<void> {
  const { count } = await prisma.session.deleteMany({ where: { id: sessionId, userId: auth.user.id } });
  if (count === 0) throw new DomainError("NOT_FOUND", "account.sessionNotFound");
}

/** Ends every session of the account but this one; returns how many. */
export async function revokeOtherSessions(auth: Auth): Promise<number> {
  const { count } = await prisma.session.deleteMany({ where: otherSessionsOf(auth) });
  return count;
}
