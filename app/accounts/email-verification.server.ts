// Proving that a person holds their account's address (docs/decisions/0031-sign-up-policy-and-verified-addresses.md).
//
// Like a password reset: the mail job makes the token, sends it, and only then stores its SHA-256
// (a link that was never delivered never works). A link works once, for VERIFICATION_LINK_LIFETIME,
// and only while the account still has the address it was sent to; a newer mail replaces it.
// Confirming it, with the password chosen at sign-up, marks the address verified and signs the
// person in (or, signed in as another account, is refused and changes nothing).
import { prisma } from "~/db.server";
import { isVanishedReference } from "~/db-errors.server";
import { dummyPasswordHash, verifyPassword } from "~/auth/password.server";
import { createSession, type Auth, type SessionDevice } from "~/auth/session.server";
import { clearSignInFailures, spendSignInAttempt } from "~/auth/sign-in.server";
import { enqueueJob } from "~/jobs/queue.server";
import { DomainError } from "~/lib/domain-error";
import { LINK_TOKEN_PATTERN, linkTokenHash } from "~/lib/link-token";
import { consume } from "~/lib/rate-limit.server";
import type { MailDelivery } from "~/organizations/invitations.server";

export const VERIFICATION_LINK_LIFETIME = 24 * 60 * 60 * 1000;
export const SEND_VERIFICATION_TASK = "send-email-verification-mail";
export const MAIL_MAX_ATTEMPTS = 8;

/** A verification mail's job, in the caller's transaction (sign-up) or its own (asking again).
 * `redirectTo` is where the link continues to (checked again when it is used). */
export async function enqueueVerificationMail(
  tx: Parameters<typeof enqueueJob>[0],
  userId: string,
  delivery: MailDelivery,
  redirectTo: string | null,
): Promise<void> {
  await enqueueJob(
    tx,
    SEND_VERIFICATION_TASK,
    // No address in the payload: the job reads the account's when it runs.
    { userId, language: delivery.language, origin: delivery.origin, redirectTo },
    { jobKey: `email-verification:${userId}`, maxAttempts: MAIL_MAX_ATTEMPTS },
  );
}

/**
 * "Send the link again", from the signed-in account that has not verified its address yet.
 * Limited per account (`auth.verify.user`); an account already verified gets nothing and the
 * same answer (there is nothing to prove).
 */
export async function requestVerificationMail(auth: Auth, delivery: MailDelivery): Promise<void> {
  await consume("auth.verify.user", auth.user.id);
  if (auth.user.emailVerified) return;
  await prisma.$transaction((tx) => enqueueVerificationMail(tx, auth.user.id, delivery, null));
}

/** The job's side: stores the hash of a token just mailed to `email`, replacing an older one
 * unless a newer one is there already. False when the account was deleted meanwhile. */
export async function storeVerificationToken(userId: string, email: string, hash: string, madeAt: Date): Promise<boolean> {
  const expiresAt = new Date(madeAt.getTime() + VERIFICATION_LINK_LIFETIME);
  try {
    await prisma.$executeRaw`
      INSERT INTO email_verifications (user_id, email, token_hash, expires_at, created_at)
      VALUES (${userId}::uuid, ${email}, ${hash}, ${expiresAt}, ${madeAt})
      ON CONFLICT (user_id) DO UPDATE
        SET email = EXCLUDED.email, token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at,
            created_at = EXCLUDED.created_at
        WHERE email_verifications.created_at < EXCLUDED.created_at`;
    return true;
  } catch (error) {
    if (isVanishedReference(error)) return false;
    throw error;
  }
}

/** What a link is, without changing anything: the account and address it would verify. */
export async function verificationLinkTarget(token: string, now = new Date()): Promise<{ userId: string; email: string } | null> {
  if (!LINK_TOKEN_PATTERN.test(token)) return null;
  const found = await prisma.emailVerification.findUnique({
    where: { tokenHash: linkTokenHash(token) },
    select: { userId: true, email: true, expiresAt: true, user: { select: { email: true, deletedAt: true } } },
  });
  if (!found || found.expiresAt <= now || found.user.deletedAt || found.user.email !== found.email) return null;
  return { userId: found.userId, email: found.email };
}

export type VerifiedSignIn = { signedIn: false } | { signedIn: true; token: string; twoFactorPending: boolean };

/**
 * Uses a verification link together with the password chosen at sign-up. The link alone is not
 * enough: whoever signed up chose that password, and the mail may reach an owner who never signed
 * up, so confirming it must not hand the account (with a stranger's password) to its address
 * (pre-hijacking, docs/decisions/0031-sign-up-policy-and-verified-addresses.md). The password is
 * checked as at sign-in and counts against the same limits (`auth.signin.account` for the
 * address, `auth.signin.address` for the client); a wrong one is the account page's 400 and
 * leaves the link usable until it expires, so a typo does not burn it.
 *
 * The row is deleted in the transaction that marks the address verified, so two uses cannot both
 * succeed. Signed out, the person is signed in (the second factor is still asked when enrolled);
 * signed in as the same account, the session stays. A used, replaced, expired or malformed link,
 * or one whose account changed its address since, is one 400; a link for another account than the
 * signed-in one is a 403 that changes nothing.
 */
export async function verifyEmail(
  input: { token: string; password: string },
  auth: Auth | null,
  clientAddress: string,
  device?: SessionDevice,
  now = new Date(),
): Promise<VerifiedSignIn> {
  const { token, password } = input;
  const target = await verificationLinkTarget(token, now);
  if (!target) throw new DomainError("BAD_REQUEST", "emailVerification.invalidLink");
  if (auth && auth.user.id !== target.userId) throw new DomainError("FORBIDDEN", "emailVerification.otherAccount");
  await spendSignInAttempt(target.email, clientAddress);
  const owner = await prisma.user.findUnique({ where: { id: target.userId }, select: { passwordHash: true } });
  if (!(await verifyPassword(owner?.passwordHash ?? (await dummyPasswordHash()), password))) {
    throw new DomainError("BAD_REQUEST", "account.passwordIncorrect");
  }
  const user = await prisma.$transaction(async (tx) => {
    const used = await tx.$queryRaw<{ userId: string }[]>`
      DELETE FROM email_verifications v USING users u
      WHERE v.token_hash = ${linkTokenHash(token)} AND v.expires_at > ${now} AND u.id = v.user_id AND u.email = v.email
      RETURNING v.user_id::text AS "userId"`;
    const userId = used[0]?.userId;
    if (!userId) throw new DomainError("BAD_REQUEST", "emailVerification.invalidLink");
    return tx.user.update({
      where: { id: userId },
      data: { emailVerifiedAt: now },
      select: { id: true, twoFactorEnabledAt: true },
    });
  });
  await clearSignInFailures(target.email, clientAddress);
  if (auth) return { signedIn: false };
  const { token: sessionToken } = await createSession(user.id, { twoFactorVerified: false, device });
  return { signedIn: true, token: sessionToken, twoFactorPending: user.twoFactorEnabledAt !== null };
}
