// "Forgot password": a single-use link mailed to the account's address
// (docs/decisions/0028-password-reset-and-account-deletion.md).
//
// Asking answers the same whether or not an account has the address: the request adds one job
// either way (with no account, a job that sends nothing), so neither the answer nor its timing
// tells. The job makes the token, sends it and only then stores its SHA-256 (like invitations:
// a link never delivered never works). A token works once, for RESET_LINK_LIFETIME; asking again
// replaces it. Using it sets the new password and signs the account out everywhere.
import { prisma } from "~/db.server";
import { isVanishedReference } from "~/db-errors.server";
import { hashPassword } from "~/auth/password.server";
import { enqueueJob } from "~/jobs/queue.server";
import { DomainError } from "~/lib/domain-error";
import { LINK_TOKEN_PATTERN, linkTokenHash } from "~/lib/link-token";
import { consumeEach, reset } from "~/lib/rate-limit.server";
import type { MailDelivery } from "~/organizations/invitations.server";

export const RESET_LINK_LIFETIME = 30 * 60 * 1000;
export const SEND_PASSWORD_RESET_TASK = "send-password-reset-mail";
/** About half an hour of retries: the link itself lasts 30 minutes. */
const MAIL_MAX_ATTEMPTS = 8;

/** One waiting reset mail per account: a repeated request replaces it. */
export function resetMailJobKey(userId: string): string {
  return `password-reset:${userId}`;
}

/**
 * Asks for a reset link for `email`. Limited per address asked for and per client address (the
 * same for unknown addresses, so the limit tells nothing either). Returns nothing: the caller says
 * "if an account exists, a link is on its way" in every case.
 */
export async function requestPasswordReset(email: string, clientAddress: string, delivery: MailDelivery): Promise<void> {
  await consumeEach([
    ["auth.reset.address", clientAddress],
    ["auth.reset.account", email],
  ]);
  const user = await prisma.user.findUnique({ where: { email }, select: { id: true } });
  await prisma.$transaction((tx) =>
    enqueueJob(
      tx,
      SEND_PASSWORD_RESET_TASK,
      // The job's payload never holds the address: it reads it from the account when it runs.
      { userId: user?.id ?? null, language: delivery.language, origin: delivery.origin },
      user ? { jobKey: resetMailJobKey(user.id), maxAttempts: MAIL_MAX_ATTEMPTS } : { maxAttempts: 1 },
    ),
  );
}

/** The job's side: stores the hash of a token that was just mailed, replacing an older one (two
 * jobs of one account may overlap: the newest link wins whichever finishes last). False when the
 * account was deleted meanwhile. */
export async function storeResetToken(userId: string, hash: string, madeAt: Date): Promise<boolean> {
  const expiresAt = new Date(madeAt.getTime() + RESET_LINK_LIFETIME);
  try {
    await prisma.$executeRaw`
      INSERT INTO password_resets (user_id, token_hash, expires_at, created_at)
      VALUES (${userId}::uuid, ${hash}, ${expiresAt}, ${madeAt})
      ON CONFLICT (user_id) DO UPDATE
        SET token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at
        WHERE password_resets.created_at < EXCLUDED.created_at`;
    return true;
  } catch (error) {
    if (isVanishedReference(error)) return false;
    throw error;
  }
}

/** Whether a link still works (the page shows the form or says it does not), changing nothing. */
export async function resetLinkWorks(token: string, now = new Date()): Promise<boolean> {
  if (!LINK_TOKEN_PATTERN.test(token)) return false;
  const found = await prisma.passwordReset.findUnique({ where: { tokenHash: linkTokenHash(token) }, select: { expiresAt: true } });
  return found !== null && found.expiresAt > now;
}

/**
 * Sets a new password with a mailed link. The token is deleted in the same transaction that sets
 * the password, so two uses of one link cannot both succeed; every session of the account ends
 * (whoever had the old password is out). A used, replaced, expired or malformed link, or one for
 * an account deleted since, is one 400.
 */
export async function resetPassword(token: string, newPassword: string, now = new Date()): Promise<void> {
  if (!(await resetLinkWorks(token, now))) throw new DomainError("BAD_REQUEST", "passwordReset.invalidLink");
  const passwordHash = await hashPassword(newPassword);
  const email = await prisma.$transaction(async (tx) => {
    const used = await tx.$queryRaw<{ userId: string }[]>`
      DELETE FROM password_resets WHERE token_hash = ${linkTokenHash(token)} AND expires_at > ${now}
      RETURNING user_id::text AS "userId"`;
    const userId = used[0]?.userId;
    if (!userId) throw new DomainError("BAD_REQUEST", "passwordReset.invalidLink");
    const user = await tx.user.update({ where: { id: userId }, data: { passwordHash }, select: { email: true } });
    // The link reached the account's mailbox: that proves the address, as a verification link would.
    await tx.user.updateMany({ where: { id: userId, emailVerifiedAt: null }, data: { emailVerifiedAt: now } });
    await tx.session.deleteMany({ where: { userId } });
    return user.email;
  });
  // Proving the mailbox is as good as the password: lift a sign-in lockout on the account.
  await reset("auth.signin.account", email);
}
