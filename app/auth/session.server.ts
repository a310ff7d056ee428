// Sessions after Lucia's design (https://lucia-auth.com): a random token lives only in the
// browser's cookie; the database keeps its SHA-256 as the session id, so a leaked table cannot
// be replayed. Expiry slides with use but never passes an absolute limit.
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { prisma, queryPrepared, type Tx } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";
import { printableText } from "~/lib/text";

const DAY = 24 * 60 * 60 * 1000;
/** A session not used for this long ends. */
export const SESSION_IDLE_TIMEOUT = 14 * DAY;
/** No session outlives this, however often it is used. */
export const SESSION_ABSOLUTE_LIFETIME = 30 * DAY;
/** How stale a session's "last seen" may get before a request writes it again (one write per
 * session every few minutes instead of one per request). */
const SEEN_PRECISION = 5 * 60 * 1000;
/** Extend the sliding expiry at most this often, to keep reads cheap. */
const RENEW_WHEN_LESS_THAN = SESSION_IDLE_TIMEOUT - DAY;
/** How recent the last full authentication must be for sensitive actions (deleting an organization). */
const FRESH_SESSION_WINDOW = 15 * 60 * 1000;
/** The same for a platform admin's support work: a working session of reads, long enough for one
 * ticket, short enough that a forgotten browser does not stay a window into every organization
 * (docs/decisions/0026-support-console.md). */
export const SUPPORT_FRESH_WINDOW = 30 * 60 * 1000;

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  isPlatformAdmin: boolean;
  twoFactorEnabled: boolean;
  /** The address was proven by a mailed link (docs/decisions/0031-sign-up-policy-and-verified-addresses.md). */
  emailVerified: boolean;
}

export interface SessionRecord {
  id: string;
  userId: string;
  expiresAt: Date;
  absoluteExpiresAt: Date;
  authenticatedAt: Date;
  twoFactorVerified: boolean;
  activeOrganizationId: string | null;
  lastSeenAt: Date;
}

/** Where a sign-in came from, kept with its session for the account page's session list. */
export interface SessionDevice {
  userAgent: string | null;
  address: string | null;
}

export interface Auth {
  session: SessionRecord;
  user: SessionUser;
}

function generateSessionToken(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

export function sessionIdFromToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

/** Tokens we issue are 32 base32 characters; anything else is not worth a query. */
const TOKEN_PATTERN = /^[a-z2-7]{32}$/;

export async function createSession(
  userId: string,
  options: { twoFactorVerified: boolean; activeOrganizationId?: string | null; now?: Date; device?: SessionDevice },
): Promise<{ token: string; session: SessionRecord }> {
  const now = options.now ?? new Date();
  const token = generateSessionToken();
  const session = await prisma.session.create({
    data: {
      id: sessionIdFromToken(token),
      userId,
      expiresAt: new Date(now.getTime() + SESSION_IDLE_TIMEOUT),
      absoluteExpiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_LIFETIME),
      authenticatedAt: now,
      twoFactorVerified: options.twoFactorVerified,
      activeOrganizationId: options.activeOrganizationId ?? null,
      lastSeenAt: now,
      userAgent: printableText(options.device?.userAgent, 300),
      ipAddress: printableText(options.device?.address, 64),
    },
    select: sessionSelect,
  });
  return { token, session };
}

const sessionSelect = {
  id: true,
  userId: true,
  expiresAt: true,
  absoluteExpiresAt: true,
  authenticatedAt: true,
  twoFactorVerified: true,
  activeOrganizationId: true,
  lastSeenAt: true,
} as const;

interface SessionRow extends SessionRecord {
  email: string;
  name: string;
  isPlatformAdmin: boolean;
  twoFactorEnabledAt: Date | null;
  emailVerifiedAt: Date | null;
  deletedAt: Date | null;
}

/** The session and its user in one statement: every signed-in request starts with this, so it is a
 * prepared statement on the pool, without Prisma's per-query work (docs/decisions/0042). */
function readSession(id: string) {
  return queryPrepared<SessionRow>(Prisma.sql`
    SELECT s.id, s.user_id AS "userId", s.expires_at AS "expiresAt", s.absolute_expires_at AS "absoluteExpiresAt",
           s.authenticated_at AS "authenticatedAt", s.two_factor_verified AS "twoFactorVerified",
           s.active_organization_id AS "activeOrganizationId", s.last_seen_at AS "lastSeenAt",
           u.email, u.name, u.is_platform_admin AS "isPlatformAdmin",
           u.two_factor_enabled_at AS "twoFactorEnabledAt", u.email_verified_at AS "emailVerifiedAt",
           u.deleted_at AS "deletedAt"
    FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.id = ${id}`);
}

export async function validateSessionToken(token: string, now = new Date()): Promise<Auth | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const [found] = await readSession(sessionIdFromToken(token));
  if (!found || found.deletedAt) return null;
  const { email, name, isPlatformAdmin, twoFactorEnabledAt, emailVerifiedAt, deletedAt: _deleted, ...session } = found;
  const user = { id: session.userId, email, name, isPlatformAdmin, twoFactorEnabledAt, emailVerifiedAt };
  if (now >= session.expiresAt || now >= session.absoluteExpiresAt) {
    await prisma.session.deleteMany({ where: { id: session.id } });
    return null;
  }
  // Slide the idle expiry forward now and then, not on every request. Near the absolute end the
  // extension is capped there; once it has reached it there is nothing left to write.
  const extended = Math.min(now.getTime() + SESSION_IDLE_TIMEOUT, session.absoluteExpiresAt.getTime());
  const renew = session.expiresAt.getTime() - now.getTime() < RENEW_WHEN_LESS_THAN && extended > session.expiresAt.getTime();
  const seen = now.getTime() - session.lastSeenAt.getTime() >= SEEN_PRECISION;
  if (renew || seen) {
    if (renew) session.expiresAt = new Date(extended);
    if (seen) session.lastSeenAt = now;
    // Signed out (or the account deleted) since the read above: then there is no session.
    const { count } = await prisma.session.updateMany({
      where: { id: session.id },
      data: { expiresAt: session.expiresAt, lastSeenAt: session.lastSeenAt },
    });
    if (count === 0) return null;
  }
  return {
    session,
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      isPlatformAdmin: user.isPlatformAdmin,
      twoFactorEnabled: user.twoFactorEnabledAt !== null,
      emailVerified: user.emailVerifiedAt !== null,
    },
  };
}

export async function invalidateSession(sessionId: string) {
  await prisma.session.deleteMany({ where: { id: sessionId } });
}

/**
 * The second factor passed (at sign-in, or by enrolling). It does not make the session fresh:
 * `authenticatedAt` stays the time the password was given (the sign-in's first step), so a code
 * alone (an old session enrolling an authenticator, or repeating the second step) never passes
 * for signing in again (docs/decisions/0026-support-console.md). A session signed out meanwhile
 * stays signed out: there is nothing to mark.
 */
export async function markSessionTwoFactorVerified(sessionId: string) {
  await prisma.session.updateMany({ where: { id: sessionId }, data: { twoFactorVerified: true } });
}

/** Inside a transaction (`db`) when the change that makes it active must commit with it. */
export async function setActiveOrganization(sessionId: string, organizationId: string | null, db: Tx = prisma) {
  await db.session.update({ where: { id: sessionId }, data: { activeOrganizationId: organizationId }, select: { id: true } });
}

/** The session is usable only once the second factor is passed, for users who enrolled one. */
export function isFullyAuthenticated(auth: Auth): boolean {
  return !auth.user.twoFactorEnabled || auth.session.twoFactorVerified;
}

export function isFresh(auth: Auth, window = FRESH_SESSION_WINDOW, now = new Date()): boolean {
  return now.getTime() - auth.session.authenticatedAt.getTime() <= window;
}
