// The mail to an organization's owners when one of its streams has been failing for
// STREAMING_FAILING_AFTER_SECONDS, and the job that sends it (one job per owner, added by
// record-failure.server.ts in the transaction that decided it, once per run of failures).
//
// KeyLedger stores no language per person (the language is the visitor's cookie or browser, decided
// per request), and this mail answers no request: so it is written in English and German, each
// in full, in the one mail layout (docs/decisions/0053-stream-delivery.md).
import { z } from "zod";
import { destinationLabel, type Destination } from "~/audit-streams/destinations";
import type { DeliveryFailure } from "~/audit-streams/outbound/send-result";
import { prisma } from "~/db.server";
import { publicOrigin } from "~/env.server";
import { supportedLanguages } from "~/i18n/config";
import { fixedT } from "~/i18n/i18next.server";
import { taskWithPayload } from "~/jobs/queue.server";
import { composeMailIn, mailTime } from "~/mail/layout.server";
import { sendMail } from "~/mail/mailer.server";

export const FAILING_MAIL_TASK = "audit-stream-failing-mail";

const payloadSchema = z.object({ organizationId: z.uuid(), streamId: z.uuid(), userId: z.uuid() });

/** The stream's delivery page (the page of part C of issue 32). */
export function streamPageUrl(origin: string, streamId: string): string {
  return `${origin}/dashboard/organization-settings/audit-streams/${encodeURIComponent(streamId)}`;
}

export interface FailingMailContent {
  person: string;
  organization: string;
  stream: string;
  destination: string;
  since: Date;
  /** The latest failure: its code, the receiver's status when it answered, our short detail. */
  failure: { failure: DeliveryFailure; status: number | null; detail: string };
  url: string;
}

/** Subject, text and HTML, English then German. Values are escaped by React in the HTML part. */
export function failingMail(content: FailingMailContent) {
  const parts = supportedLanguages.map((language) => {
    const t = fixedT(language);
    const { failure, status, detail } = content.failure;
    const values = {
      ...content,
      since: mailTime(content.since),
      failure: t(`mail:auditStreamFailing.failures.${failure}`, { status: status ?? "", detail }),
    };
    return {
      subject: t("mail:auditStreamFailing.subject", values),
      paragraphs: [
        t("mail:auditStreamFailing.greeting", values),
        t("mail:auditStreamFailing.body", values),
        t("mail:auditStreamFailing.retrying"),
      ],
      action: t("mail:auditStreamFailing.action"),
      linkIntro: t("mail:auditStreamFailing.linkIntro"),
      note: t("mail:auditStreamFailing.once", values),
    };
  });
  return composeMailIn(supportedLanguages, parts, content.url);
}

interface MailFacts {
  email: string;
  person: string;
  organization: string;
  stream: string;
  kind: Destination["kind"];
  settings: Destination["settings"];
  failingSince: Date | null;
  failure: DeliveryFailure | null;
  status: number | null;
  detail: string | null;
}

export const sendFailingMail = taskWithPayload(
  "audit stream failing mail",
  payloadSchema,
  async ({ organizationId, streamId, userId }, helpers) => {
    // Read when the mail goes out: the person must still be an owner, the stream still failing.
    const [facts] = await prisma.$queryRaw<MailFacts[]>`
    SELECT u.email, u.name AS person, o.name AS organization, s.name AS stream, s.kind, s.settings,
           s.failing_since AS "failingSince", f.failure, f.status, f.detail
    FROM audit_streams s
    JOIN organizations o ON o.id = s.organization_id
    JOIN memberships m ON m.organization_id = s.organization_id AND m.user_id = ${userId}::uuid AND m.role = 'owner'
    JOIN users u ON u.id = m.user_id AND u.deleted_at IS NULL
    LEFT JOIN LATERAL (SELECT failure, status, detail FROM audit_stream_failures
                       WHERE organization_id = ${organizationId}::uuid AND stream_id = s.id ORDER BY at DESC, id DESC LIMIT 1) f ON true
    WHERE s.organization_id = ${organizationId}::uuid AND s.id = ${streamId}::uuid AND o.id = ${organizationId}::uuid`;
    // The stream was deleted or recovered, or the person is no longer an owner: nothing to say. (A
    // failing stream always has its latest failure: it is written with failing_since.)
    const failure = facts?.failure;
    if (!facts?.failingSince || !failure) return;
    const mail = failingMail({
      person: facts.person,
      organization: facts.organization,
      stream: facts.stream,
      destination: destinationLabel({ kind: facts.kind, settings: facts.settings } as Destination),
      since: facts.failingSince,
      failure: { failure, status: facts.status, detail: facts.detail ?? "" },
      url: streamPageUrl(publicOrigin(), streamId),
    });
    await sendMail({ to: facts.email, ...mail, messageId: `<audit-stream-failing-${streamId}-${helpers.job.id}@keyledger>` });
  },
);
