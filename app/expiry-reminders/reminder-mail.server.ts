// The expiry reminder mail and the job that sends it (one job per recipient, queued by the planner).
// Everything is read again when the mail goes out: the key must still be unrevoked, still expire at
// the instant the reminder was planned for (a changed expiry gets its own plan), still carry the
// secret it had then (a rotation since: the mail would name a prefix that no longer works), the
// organization must still exist, and the person must still be an owner or admin and not deleted.
// Otherwise nothing is sent. Written in the recipient's stored language (English when none).
import { href } from "react-router";
import { z } from "zod";
import { prisma } from "~/db.server";
import { publicOrigin } from "~/env.server";
import { fallbackLanguage, isLanguage, type Language } from "~/i18n/config";
import { fixedT } from "~/i18n/i18next.server";
import { taskWithPayload } from "~/jobs/queue.server";
import { composeMail, mailTime } from "~/mail/layout.server";
import { sendMail } from "~/mail/mailer.server";
import { daysLeft, isReminderKind, stillInWindow } from "./reminder-kinds";

const payloadSchema = z.object({ organizationId: z.uuid(), reminderId: z.uuid(), userId: z.uuid() });

/**
 * The link to the key: a page of the key's organization that opens its keys page filtered to the
 * key's prefix (`q`), after asking to switch when another organization is active (decision 0058).
 */
export function keyLinkUrl(origin: string, organizationId: string, prefix: string): string {
  return `${origin}${href("/dashboard/organizations/:organizationId/api-keys", { organizationId })}?q=${encodeURIComponent(prefix)}`;
}

export interface ReminderMailContent {
  person: string;
  organization: string;
  key: string;
  prefix: string;
  expiresAt: Date;
  /** When the reminder was planned: the subject counts the days left from there (a retried send
   * minutes later still says "7 days"; the body gives the exact time). */
  plannedAt: Date;
  url: string;
}

/** Subject, text and HTML in one language. Values are escaped by React in the HTML part. */
export function reminderMail(language: Language, content: ReminderMailContent) {
  const t = fixedT(language);
  const values = { ...content, date: mailTime(content.expiresAt), count: daysLeft(content.expiresAt, content.plannedAt) };
  return composeMail({
    language,
    subject: t("mail:apiKeyExpiry.subject", values),
    paragraphs: [t("mail:apiKeyExpiry.greeting", values), t("mail:apiKeyExpiry.body", values), t("mail:apiKeyExpiry.advice")],
    action: { label: t("mail:apiKeyExpiry.action"), url: content.url, intro: t("mail:apiKeyExpiry.linkIntro") },
    notes: [t("mail:apiKeyExpiry.once", values)],
  });
}

interface ReminderFacts {
  email: string;
  person: string;
  language: string | null;
  organization: string;
  key: string;
  prefix: string;
  kind: string;
  expiresAt: Date;
  plannedAt: Date;
}

/** The reminder with its key, organization and recipient, or nothing when any of them no longer qualifies. */
async function reminderFacts({ organizationId, reminderId, userId }: z.infer<typeof payloadSchema>): Promise<ReminderFacts | undefined> {
  const [facts] = await prisma.$queryRaw<ReminderFacts[]>`
    SELECT u.email, u.name AS person, u.language, o.name AS organization, k.name AS key, k.prefix, r.kind,
           r.expires_at AS "expiresAt", r.planned_at AS "plannedAt"
      FROM api_key_expiry_reminders r
      JOIN api_keys k ON k.organization_id = r.organization_id AND k.id = r.api_key_id
      JOIN organizations o ON o.id = r.organization_id
      JOIN memberships m ON m.organization_id = r.organization_id AND m.user_id = ${userId}::uuid AND m.role IN ('owner', 'admin')
      JOIN users u ON u.id = m.user_id AND u.deleted_at IS NULL
     WHERE r.organization_id = ${organizationId}::uuid AND r.id = ${reminderId}::uuid
       AND k.organization_id = ${organizationId}::uuid AND o.id = ${organizationId}::uuid
       AND k.revoked_at IS NULL AND k.expires_at = r.expires_at AND k.prefix = r.prefix`;
  return facts;
}

export const sendReminderMail = taskWithPayload("api key expiry reminder mail", payloadSchema, async (payload) => {
  const facts = await reminderFacts(payload);
  // Gone, changed, or sent so late (the mail server refused for long) that it would be wrong.
  if (!facts || !isReminderKind(facts.kind) || !stillInWindow(facts.kind, facts.expiresAt, new Date())) return;
  const language = isLanguage(facts.language) ? facts.language : fallbackLanguage;
  const mail = reminderMail(language, {
    person: facts.person,
    organization: facts.organization,
    key: facts.key,
    prefix: facts.prefix,
    expiresAt: facts.expiresAt,
    plannedAt: facts.plannedAt,
    url: keyLinkUrl(publicOrigin(), payload.organizationId, facts.prefix),
  });
  // Stable per reminder and person: a retry after a lost acknowledgement is recognizable as the same message.
  await sendMail({ to: facts.email, ...mail, messageId: `<api-key-expiry-${payload.reminderId}-${payload.userId}@keyledger>` });
});
