// The invitation mail and the job that sends it. The job runs after the invitation committed
// (docs/decisions/0021-invitations-and-outbox.md). It makes the link's token only now, sends, and
// stores the token's hash only once the mail server has accepted the message: a link that was
// never delivered never works and a failed send keeps the previous link valid. Nothing is locked
// during the send, so a cancel or accept never waits for a mail server; one that lands during the
// send wins, and the link in that mail then does not work. The job's payload holds no token, so
// none is ever stored in plain text.
import { href } from "react-router";
import { z } from "zod";
import { taskWithPayload } from "~/jobs/queue.server";
import { prisma } from "~/db.server";
import type { Role } from "~/generated/prisma/enums";
import { fixedT } from "~/i18n/i18next.server";
import { supportedLanguages } from "~/i18n/config";
import { composeMail, mailTime } from "~/mail/layout.server";
import { sendMail } from "~/mail/mailer.server";
import { newInvitationToken } from "./invitation-acceptance.server";
import { setInvitationTokenHash } from "./organization-lookups.server";

const payloadSchema = z.object({
  /** Absent only in jobs queued by a release before decision 0050's; those are found by id alone. */
  organizationId: z.uuid().optional(),
  invitationId: z.uuid(),
  language: z.enum(supportedLanguages),
  origin: z.url(),
});

/** The accept page's address for a token. */
export function acceptUrl(origin: string, token: string): string {
  return `${origin}${href("/invitations/accept")}?token=${encodeURIComponent(token)}`;
}

export interface InvitationMailContent {
  organization: string;
  inviter: string | null;
  role: Role;
  url: string;
  expiresAt: Date;
}

/** Subject, text and HTML in one language. Values are escaped by React in the HTML part. */
export function invitationMail(language: (typeof supportedLanguages)[number], content: InvitationMailContent) {
  const t = fixedT(language);
  const values = {
    organization: content.organization,
    inviter: content.inviter ?? t("mail:invitation.someone"),
    role: t(`common:roles.${content.role}`),
    date: mailTime(content.expiresAt),
  };
  return composeMail({
    language,
    subject: t("mail:invitation.subject", values),
    paragraphs: [t("mail:invitation.greeting"), t("mail:invitation.body", values)],
    action: { label: t("mail:invitation.action"), url: content.url, intro: t("mail:invitation.linkIntro") },
    notes: [t("mail:invitation.expiry", values), t("mail:invitation.ignore")],
  });
}

/** The job's organization: in its payload, or (a job an older release queued) the invitation's. */
async function organizationOf(payload: { organizationId?: string; invitationId: string }): Promise<string | null> {
  if (payload.organizationId) return payload.organizationId;
  const found = await prisma.invitation.findFirst({ where: { id: payload.invitationId }, select: { organizationId: true } });
  return found?.organizationId ?? null;
}

export const sendInvitationMail = taskWithPayload("invitation mail", payloadSchema, async (payload, helpers) => {
  const { invitationId, language, origin } = payload;
  const organizationId = await organizationOf(payload);
  // Deleted with its organization since: nothing to send.
  if (!organizationId) return;
  const stillOpen = { organizationId, id: invitationId, status: "pending" as const, expiresAt: { gt: new Date() } };
  const invitation = await prisma.invitation.findFirst({
    where: stillOpen,
    select: { email: true, role: true, expiresAt: true, organization: { select: { name: true } }, invitedBy: { select: { name: true } } },
  });
  // Canceled, accepted, expired or deleted with its organization since: nothing to send.
  if (!invitation) return;
  const { token, hash } = newInvitationToken();
  const madeAt = new Date();
  const mail = invitationMail(language, {
    organization: invitation.organization.name,
    inviter: invitation.invitedBy?.name ?? null,
    role: invitation.role,
    url: acceptUrl(origin, token),
    expiresAt: invitation.expiresAt,
  });
  // No transaction or lock is held over the network: a slow mail server delays only this job.
  await sendMail({ to: invitation.email, ...mail, messageId: `<invitation-${invitationId}-${helpers.job.id}@keyledger>` });
  // The link starts working now, if the invitation is still open and no newer link was made
  // meanwhile (a resend's job may overtake this one).
  const stored = await prisma.$transaction(async (tx) => {
    const updated = await tx.invitation.updateMany({
      where: { ...stillOpen, OR: [{ lastSentAt: null }, { lastSentAt: { lt: madeAt } }] },
      data: { tokenHash: hash, lastSentAt: madeAt },
    });
    // The row is locked by the update until this commits, so lookups of one invitation never cross.
    if (updated.count > 0) await setInvitationTokenHash(tx, { organizationId, invitationId }, hash);
    return updated;
  });
  if (stored.count === 0) helpers.logger.info("invitation closed or sent again while its mail was sent: this mail's link does not work");
});
