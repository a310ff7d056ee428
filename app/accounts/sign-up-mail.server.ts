// The mails of signing up (docs/decisions/0031-sign-up-policy-and-verified-addresses.md): "confirm
// your address" with its single-use link, and, when someone signs up with an address that already
// has an account, a note to that account's owner instead (with links to sign in and to reset the
// password). A job whose account is gone by the time it runs sends nothing.
import { href } from "react-router";
import { z } from "zod";
import { taskWithPayload } from "~/jobs/queue.server";
import { prisma } from "~/db.server";
import { supportedLanguages, type Language } from "~/i18n/config";
import { fixedT } from "~/i18n/i18next.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { composeMail, mailTime } from "~/mail/layout.server";
import { sendMail } from "~/mail/mailer.server";
import { storeVerificationToken, VERIFICATION_LINK_LIFETIME } from "./email-verification.server";
import { newHashedLinkToken } from "~/lib/link-token";

export const SEND_SIGN_UP_ATTEMPT_TASK = "send-sign-up-attempt-mail";

const payloadSchema = z.object({
  userId: z.uuid(),
  language: z.enum(supportedLanguages),
  origin: z.url(),
  redirectTo: z.string().max(2048).nullish(),
});

/** The verification page's address for a token, continuing to `redirectTo` when it is one of ours. */
export function verificationUrl(origin: string, token: string, redirectTo?: string | null): string {
  const next = safeRedirectPath(redirectTo, "");
  const tail = next ? `&redirectTo=${encodeURIComponent(next)}` : "";
  return `${origin}${href("/verify-email")}?token=${encodeURIComponent(token)}${tail}`;
}

export function verificationMail(language: Language, content: { name: string; url: string; expiresAt: Date }) {
  const t = fixedT(language);
  const values = { name: content.name, date: mailTime(content.expiresAt), hours: VERIFICATION_LINK_LIFETIME / 3_600_000 };
  return composeMail({
    language,
    subject: t("mail:verifyEmail.subject"),
    paragraphs: [t("mail:verifyEmail.greeting", values), t("mail:verifyEmail.body")],
    action: { label: t("mail:verifyEmail.action"), url: content.url, intro: t("mail:verifyEmail.linkIntro") },
    notes: [t("mail:verifyEmail.expiry", values), t("mail:verifyEmail.ignore")],
  });
}

export function signUpAttemptMail(language: Language, content: { name: string; origin: string }) {
  const t = fixedT(language);
  return composeMail({
    language,
    subject: t("mail:signUpAttempt.subject"),
    paragraphs: [t("mail:signUpAttempt.greeting", { name: content.name }), t("mail:signUpAttempt.body")],
    action: { label: t("mail:signUpAttempt.action"), url: `${content.origin}${href("/login")}`, intro: t("mail:signUpAttempt.linkIntro") },
    links: [{ intro: t("mail:signUpAttempt.resetIntro"), url: `${content.origin}${href("/forgot-password")}` }],
    notes: [t("mail:signUpAttempt.ignore")],
  });
}

export const sendVerificationMail = taskWithPayload(
  "verification mail",
  payloadSchema,
  async ({ userId, language, origin, redirectTo }, helpers) => {
    const user = await prisma.user.findUnique({ where: { id: userId }, select: { email: true, name: true, emailVerifiedAt: true } });
    // Verified meanwhile (another link, an invitation, a reset): nothing left to prove.
    if (!user || user.emailVerifiedAt) return;
    const { token, hash } = newHashedLinkToken();
    const madeAt = new Date();
    const mail = verificationMail(language, {
      name: user.name,
      url: verificationUrl(origin, token, redirectTo),
      expiresAt: new Date(madeAt.getTime() + VERIFICATION_LINK_LIFETIME),
    });
    await sendMail({ to: user.email, ...mail, messageId: `<email-verification-${helpers.job.id}@keyledger>` });
    if (!(await storeVerificationToken(userId, user.email, hash, madeAt)))
      helpers.logger.info("account deleted while its verification mail was sent: the link does not work");
  },
);

export const sendSignUpAttemptMail = taskWithPayload(
  "sign-up attempt mail",
  payloadSchema,
  async ({ userId, language, origin }, helpers) => {
    const user = await prisma.user.findUnique({ where: { id: userId }, select: { email: true, name: true, deletedAt: true } });
    if (!user || user.deletedAt) return;
    const mail = signUpAttemptMail(language, { name: user.name, origin });
    await sendMail({ to: user.email, ...mail, messageId: `<sign-up-attempt-${helpers.job.id}@keyledger>` });
  },
);
