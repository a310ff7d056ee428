// The "reset your password" mail and the job that sends it (docs/decisions/0028-password-reset-and-account-deletion.md).
// The job makes the token only now, sends it, and stores its hash once the mail server accepted the
// message, so a link that was never delivered never works. A job for an address with no account
// (or an account deleted since) sends nothing.
import { href } from "react-router";
import { z } from "zod";
import { taskWithPayload } from "~/jobs/queue.server";
import { prisma } from "~/db.server";
import { supportedLanguages, type Language } from "~/i18n/config";
import { fixedT } from "~/i18n/i18next.server";
import { composeMail, mailTime } from "~/mail/layout.server";
import { sendMail } from "~/mail/mailer.server";
import { RESET_LINK_LIFETIME, storeResetToken } from "./password-reset.server";
import { newHashedLinkToken } from "~/lib/link-token";

const payloadSchema = z.object({
  userId: z.uuid().nullable(),
  language: z.enum(supportedLanguages),
  origin: z.url(),
});

/** The reset page's address for a token. */
export function resetUrl(origin: string, token: string): string {
  return `${origin}${href("/reset-password")}?token=${encodeURIComponent(token)}`;
}

export function passwordResetMail(language: Language, content: { name: string; url: string; expiresAt: Date }) {
  const t = fixedT(language);
  const values = {
    name: content.name,
    date: mailTime(content.expiresAt),
    minutes: RESET_LINK_LIFETIME / 60_000,
  };
  return composeMail({
    language,
    subject: t("mail:passwordReset.subject"),
    paragraphs: [t("mail:passwordReset.greeting", values), t("mail:passwordReset.body")],
    action: { label: t("mail:passwordReset.action"), url: content.url, intro: t("mail:passwordReset.linkIntro") },
    notes: [t("mail:passwordReset.expiry", values), t("mail:passwordReset.ignore")],
  });
}

export const sendPasswordResetMail = taskWithPayload("password reset", payloadSchema, async ({ userId, language, origin }, helpers) => {
  if (!userId) return;
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { email: true, name: true } });
  if (!user) return;
  const { token, hash } = newHashedLinkToken();
  const madeAt = new Date();
  const mail = passwordResetMail(language, {
    name: user.name,
    url: resetUrl(origin, token),
    expiresAt: new Date(madeAt.getTime() + RESET_LINK_LIFETIME),
  });
  await sendMail({ to: user.email, ...mail, messageId: `<password-reset-${helpers.job.id}@keyledger>` });
  if (!(await storeResetToken(userId, hash, madeAt)))
    helpers.logger.info("account deleted while its reset mail was sent: the link does not work");
});
