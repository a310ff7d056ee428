// The mails of changing one's address: the confirmation link to the new address (or, when that
// address already has an account, a note saying so and changing nothing), and the notice to the
// old address once the change is done.
import { href } from "react-router";
import { z } from "zod";
import { taskWithPayload } from "~/jobs/queue.server";
import { prisma } from "~/db.server";
import { supportedLanguages, type Language } from "~/i18n/config";
import { fixedT } from "~/i18n/i18next.server";
import { composeMail, mailTime } from "~/mail/layout.server";
import { sendMail } from "~/mail/mailer.server";
import { EMAIL_CHANGE_LINK_LIFETIME, forgetEmailChange, storeEmailChange } from "./email-change.server";
import { newHashedLinkToken } from "~/lib/link-token";

const base = { userId: z.uuid(), language: z.enum(supportedLanguages), origin: z.url() };
const changePayload = z.object({ ...base, newEmail: z.string().max(254) });
const noticePayload = z.object({ ...base, oldEmail: z.string().max(254) });

export function emailChangeUrl(origin: string, token: string): string {
  return `${origin}${href("/dashboard/account/confirm-email")}?token=${encodeURIComponent(token)}`;
}

export function emailChangeMail(language: Language, content: { name: string; newEmail: string; url: string; expiresAt: Date }) {
  const t = fixedT(language);
  const values = {
    name: content.name,
    email: content.newEmail,
    date: mailTime(content.expiresAt),
    hours: EMAIL_CHANGE_LINK_LIFETIME / 3_600_000,
  };
  return composeMail({
    language,
    subject: t("mail:emailChange.subject"),
    paragraphs: [t("mail:emailChange.greeting", values), t("mail:emailChange.body", values)],
    action: { label: t("mail:emailChange.action"), url: content.url, intro: t("mail:emailChange.linkIntro") },
    notes: [t("mail:emailChange.expiry", values), t("mail:emailChange.ignore")],
  });
}

export function emailTakenMail(language: Language, content: { origin: string }) {
  const t = fixedT(language);
  return composeMail({
    language,
    subject: t("mail:emailChangeTaken.subject"),
    paragraphs: [t("mail:emailChangeTaken.body")],
    action: {
      label: t("mail:emailChangeTaken.action"),
      url: `${content.origin}${href("/login")}`,
      intro: t("mail:emailChangeTaken.linkIntro"),
    },
    notes: [t("mail:emailChangeTaken.ignore")],
  });
}

export function emailChangedNotice(language: Language, content: { name: string; newEmail: string; origin: string }) {
  const t = fixedT(language);
  return composeMail({
    language,
    subject: t("mail:emailChanged.subject"),
    paragraphs: [t("mail:emailChanged.greeting", { name: content.name }), t("mail:emailChanged.body", { email: content.newEmail })],
    action: { label: t("mail:emailChanged.action"), url: `${content.origin}${href("/login")}`, intro: t("mail:emailChanged.linkIntro") },
    notes: [t("mail:emailChanged.notYou")],
  });
}

export const sendEmailChangeMail = taskWithPayload(
  "e-mail change",
  changePayload,
  async ({ userId, newEmail, language, origin }, helpers) => {
    const user = await prisma.user.findUnique({ where: { id: userId }, select: { name: true } });
    if (!user) return;
    const messageId = `<email-change-${helpers.job.id}@keyledger>`;
    const taken = await prisma.user.findUnique({ where: { email: newEmail }, select: { id: true } });
    if (taken) {
      await sendMail({ to: newEmail, ...emailTakenMail(language, { origin }), messageId });
      // The newest request replaces an older link here too, as a free address's new link does: were
      // the older one kept, whether it still works would tell its holder this address is taken.
      await forgetEmailChange(userId);
      return;
    }
    const { token, hash } = newHashedLinkToken();
    const madeAt = new Date();
    const mail = emailChangeMail(language, {
      name: user.name,
      newEmail,
      url: emailChangeUrl(origin, token),
      expiresAt: new Date(madeAt.getTime() + EMAIL_CHANGE_LINK_LIFETIME),
    });
    await sendMail({ to: newEmail, ...mail, messageId });
    if (!(await storeEmailChange(userId, newEmail, hash, madeAt)))
      helpers.logger.info("account deleted while its e-mail change mail was sent: the link does not work");
  },
);

export const sendEmailChangedNotice = taskWithPayload(
  "e-mail changed notice",
  noticePayload,
  async ({ userId, oldEmail, language, origin }, helpers) => {
    const user = await prisma.user.findUnique({ where: { id: userId }, select: { name: true, email: true } });
    if (!user) return;
    const mail = emailChangedNotice(language, { name: user.name, newEmail: user.email, origin });
    await sendMail({ to: oldEmail, ...mail, messageId: `<email-changed-${helpers.job.id}@keyledger>` });
  },
);
