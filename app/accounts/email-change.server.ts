// A person's own name and address (docs/decisions/0031-sign-up-policy-and-verified-addresses.md).
//
// The name changes at once; it is the person's, not an organization's, so no organization's audit
// log records it. A new address needs the current password, and changes only when the signed-in
// account opens the link mailed to the new address (single use, EMAIL_CHANGE_LINK_LIFETIME);
// then the old address is told. Asking answers the same whether or not the new address already
// has an account: the request does the same work either way (one job), and the job, not the
// request, tells the new address "this address already has an account".
import { prisma } from "~/db.server";
import { isUniqueViolation } from "~/db-errors.server";
import type { Auth } from "~/auth/session.server";
import { enqueueJob } from "~/jobs/queue.server";
import { DomainError } from "~/lib/domain-error";
import { LINK_TOKEN_PATTERN } from "~/lib/link-token";
import { consume, reset } from "~/lib/rate-limit.server";
import type { MailDelivery } from "~/organizations/invitations.server";
import { accountPasswordMatches } from "./account-security.server";
import { MAIL_MAX_ATTEMPTS } from "./email-verification.server";
import { linkTokenHash } from "~/lib/link-token";

export const EMAIL_CHANGE_LINK_LIFETIME = 24 * 60 * 60 * 1000;
export const SEND_EMAIL_CHANGE_TASK = "send-email-change-mail";
export const SEND_EMAIL_CHANGED_NOTICE_TASK = "send-email-changed-notice";

export async function updateName(auth: Auth, name: string): Promise<void> {
  await prisma.user.update({ where: { id: auth.user.id }, data: { name }, select: { id: true } });
  auth.user.name = name;
}

/**
 * Asks to move the account to `newEmail`. The current password is checked first (attempts count
 * against `auth.password.user`); asking for the address the account has is a 400. Limited per
 * account (`account.email.user`), taken or free alike.
 */
export async function requestEmailChange(
  auth: Auth,
  input: { newEmail: string; currentPassword: string },
  delivery: MailDelivery,
): Promise<void> {
  if (!(await accountPasswordMatches(auth, input.currentPassword))) throw new DomainError("BAD_REQUEST", "account.wrongPassword");
  await reset("auth.password.user", auth.user.id);
  if (input.newEmail === auth.user.email) throw new DomainError("BAD_REQUEST", "emailChange.sameAddress");
  await consume("account.email.user", auth.user.id);
  await prisma.$transaction((tx) =>
    enqueueJob(
      tx,
      SEND_EMAIL_CHANGE_TASK,
      { userId: auth.user.id, newEmail: input.newEmail, language: delivery.language, origin: delivery.origin },
      { jobKey: `email-change:${auth.user.id}`, maxAttempts: MAIL_MAX_ATTEMPTS },
    ),
  );
}

/** The job's side, once the link was mailed: stores the pending change, replacing an older one
 * unless a newer one is there. False when the account is gone. */
export async function storeEmailChange(userId: string, newEmail: string, hash: string, madeAt: Date): Promise<boolean> {
  const expiresAt = new Date(madeAt.getTime() + EMAIL_CHANGE_LINK_LIFETIME);
  const stored = await prisma.$executeRaw`
    INSERT INTO email_changes (user_id, new_email, token_hash, expires_at, created_at)
    SELECT id, ${newEmail}, ${hash}, ${expiresAt}, ${madeAt} FROM users WHERE id = ${userId}::uuid
    ON CONFLICT (user_id) DO UPDATE
      SET new_email = EXCLUDED.new_email, token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at,
          created_at = EXCLUDED.created_at
      WHERE email_changes.created_at < EXCLUDED.created_at`;
  return stored > 0;
}

/** The job's side when the new address is taken: no link for it, and none left from an older request. */
export async function forgetEmailChange(userId: string): Promise<void> {
  await prisma.emailChange.deleteMany({ where: { userId } });
}

/** What a confirmation link would do, changing nothing: null when it does not work (anymore). */
export async function emailChangeLinkTarget(token: string, now = new Date()): Promise<{ userId: string; newEmail: string } | null> {
  if (!LINK_TOKEN_PATTERN.test(token)) return null;
  const found = await prisma.emailChange.findUnique({
    where: { tokenHash: linkTokenHash(token) },
    select: { userId: true, newEmail: true, expiresAt: true },
  });
  return found && found.expiresAt > now ? { userId: found.userId, newEmail: found.newEmail } : null;
}

/**
 * Opens a confirmation link with the signed-in account: the pending change is deleted in the
 * transaction that moves the account to the new (now proven) address, so a link works once. A
 * used, replaced, expired or malformed link is a 400; another account's link a 403; an address
 * that got an account of its own since the mail a 409. None of them changes anything. The old
 * address is told after the change (a job in the same transaction).
 */
export async function confirmEmailChange(auth: Auth, token: string, delivery: MailDelivery, now = new Date()): Promise<string> {
  const target = await emailChangeLinkTarget(token, now);
  if (!target) throw new DomainError("BAD_REQUEST", "emailChange.invalidLink");
  if (target.userId !== auth.user.id) throw new DomainError("FORBIDDEN", "emailChange.otherAccount");
  try {
    return await prisma.$transaction(async (tx) => {
      const used = await tx.$queryRaw<{ newEmail: string }[]>`
        DELETE FROM email_changes WHERE token_hash = ${linkTokenHash(token)} AND user_id = ${auth.user.id}::uuid AND expires_at > ${now}
        RETURNING new_email AS "newEmail"`;
      const newEmail = used[0]?.newEmail;
      if (!newEmail) throw new DomainError("BAD_REQUEST", "emailChange.invalidLink");
      const before = await tx.user.findUniqueOrThrow({ where: { id: auth.user.id }, select: { email: true } });
      await tx.user.update({ where: { id: auth.user.id }, data: { email: newEmail, emailVerifiedAt: now }, select: { id: true } });
      // Links mailed to the old address prove nothing about the new one, and a password-reset
      // link there would hand the moved account to whoever still reads the old mailbox.
      await tx.emailVerification.deleteMany({ where: { userId: auth.user.id } });
      await tx.passwordReset.deleteMany({ where: { userId: auth.user.id } });
      await enqueueJob(
        tx,
        SEND_EMAIL_CHANGED_NOTICE_TASK,
        { userId: auth.user.id, oldEmail: before.email, language: delivery.language, origin: delivery.origin },
        { maxAttempts: MAIL_MAX_ATTEMPTS },
      );
      return newEmail;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError("CONFLICT", "emailChange.addressTaken");
    throw error;
  }
}
