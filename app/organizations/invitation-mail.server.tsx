// The invitation mail and the job that sends it. The job runs after the invitation committed
// (docs/decisions/0021-invitations-and-outbox.md). It makes the link's token only now, stores its
// hash and sends while holding the invitation's lock, and commits only once the mail server has
// accepted the message: a link that was never delivered never works, a failed send keeps the
// previous link valid, and a cancel or accept waits until the send is done. The job's payload
// holds no token, so none is ever stored in plain text.
import type { Task } from "graphile-worker";
import { renderToStaticMarkup } from "react-dom/server";
import { z } from "zod";
import { prisma } from "~/db.server";
import { fixedT } from "~/i18n/i18next.server";
import { supportedLanguages } from "~/i18n/config";
import { sendMail } from "~/mail/mailer.server";
import { newInvitationToken } from "./invitations.server";

const payloadSchema = z.object({
  invitationId: z.uuid(),
  language: z.enum(supportedLanguages),
  origin: z.url(),
});

/** The accept page's address for a token. */
export function acceptUrl(origin: string, token: string): string {
  return `${origin}/invitations/accept?token=${encodeURIComponent(token)}`;
}

export interface InvitationMailContent {
  organization: string;
  inviter: string | null;
  role: string;
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
    date: content.expiresAt.toISOString().slice(0, 16).replace("T", " "),
  };
  const subject = t("mail:invitation.subject", values);
  const lines = [
    t("mail:invitation.greeting"),
    t("mail:invitation.body", values),
    `${t("mail:invitation.linkIntro")}\n${content.url}`,
    t("mail:invitation.expiry", values),
    t("mail:invitation.ignore"),
  ];
  const html = renderToStaticMarkup(
    <html lang={language}>
      <body style={{ fontFamily: "system-ui, sans-serif", color: "#0f172a", lineHeight: 1.5 }}>
        <p>{t("mail:invitation.greeting")}</p>
        <p>{t("mail:invitation.body", values)}</p>
        <p>
          <a
            href={content.url}
            style={{ background: "#4f46e5", color: "#ffffff", padding: "10px 16px", borderRadius: 6, textDecoration: "none" }}
          >
            {t("mail:invitation.action")}
          </a>
        </p>
        <p style={{ fontSize: 13, color: "#475569" }}>
          {t("mail:invitation.linkIntro")} <a href={content.url}>{content.url}</a>
        </p>
        <p style={{ fontSize: 13, color: "#475569" }}>{t("mail:invitation.expiry", values)}</p>
        <p style={{ fontSize: 13, color: "#475569" }}>{t("mail:invitation.ignore")}</p>
      </body>
    </html>,
  );
  return { subject, text: lines.join("\n\n") + "\n", html: `<!doctype html>${html}` };
}

export const sendInvitationMail: Task = async (rawPayload, helpers) => {
  const payload = payloadSchema.safeParse(rawPayload);
  // A payload we cannot read will not get better by retrying.
  if (!payload.success) {
    helpers.logger.error("invitation mail job with an unreadable payload: dropped");
    return;
  }
  const { invitationId, language, origin } = payload.data;
  await prisma.$transaction(
    async (tx) => {
      const rows = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM invitations WHERE id = ${invitationId}::uuid AND status = 'pending' AND expires_at > now() FOR UPDATE`;
      // Canceled, accepted, expired or deleted with its organization since: nothing to send.
      if (rows.length === 0) return;
      const invitation = await tx.invitation.findUniqueOrThrow({
        where: { id: invitationId },
        select: {
          email: true,
          role: true,
          expiresAt: true,
          organization: { select: { name: true } },
          invitedBy: { select: { name: true } },
        },
      });
      const { token, hash } = newInvitationToken();
      await tx.invitation.update({ where: { id: invitationId }, data: { tokenHash: hash, lastSentAt: new Date() }, select: { id: true } });
      const mail = invitationMail(language, {
        organization: invitation.organization.name,
        inviter: invitation.invitedBy?.name ?? null,
        role: invitation.role,
        url: acceptUrl(origin, token),
        expiresAt: invitation.expiresAt,
      });
      await sendMail({ to: invitation.email, ...mail, messageId: `<invitation-${invitationId}-${helpers.job.id}@keyledger>` });
    },
    // The mail server's own timeouts (app/mail) end a hung send well before this.
    { timeout: 60_000, maxWait: 10_000 },
  );
};
