// The mail to an organization's owners and admins when a secret scanner reports one of its active
// keys' secrets leaked, and the job that sends it (one job per recipient, queued by
// record-reports.server.ts in the transaction that inserted the report: once per leaked secret).
// What the key is, where it was found, what to do, and a link to the key on the keys page.
import { href } from "react-router";
import { z } from "zod";
import { prisma } from "~/db.server";
import { publicOrigin } from "~/env.server";
import type { Language } from "~/i18n/config";
import { fixedT } from "~/i18n/i18next.server";
import { taskWithPayload } from "~/jobs/queue.server";
import { composeMailIn, mailTime } from "~/mail/layout.server";
import { sendMail } from "~/mail/mailer.server";
import { mailLanguagesFor } from "./mail-language.server";

export const LEAK_MAIL_TASK = "api-key-leak-mail";

const payloadSchema = z.object({ organizationId: z.uuid(), apiKeyId: z.uuid(), reportId: z.uuid(), userId: z.uuid() });

/** The key's organization's keys page, filtered to the key by its prefix (the keys page's `q`):
 * through the page that asks before switching when another organization is active (as the expiry
 * reminders' link does), so a person in several organizations does not land on the wrong one's keys. */
export function keyPageUrl(origin: string, organizationId: string, prefix: string): string {
  const page = href("/dashboard/organizations/:organizationId/api-keys", { organizationId });
  return `${origin}${page}?${new URLSearchParams({ q: prefix }).toString()}`;
}

export interface LeakMailContent {
  person: string;
  organization: string;
  key: { name: string; prefix: string; state: "active" | "expired" | "revoked" };
  found: { at: Date; source: string; url: string };
  url: string;
}

/** Subject, text and HTML in `languages`, one after the other. Values are escaped by React in the HTML part. */
export function leakMail(content: LeakMailContent, languages: readonly Language[]) {
  const parts = languages.map((language) => {
    const t = fixedT(language);
    const where = content.found.url
      ? t("mail:apiKeyLeaked.whereUrl", { url: content.found.url, source: content.found.source })
      : t("mail:apiKeyLeaked.whereSource", { source: content.found.source || "GitHub" });
    const values = {
      person: content.person,
      organization: content.organization,
      name: content.key.name,
      prefix: content.key.prefix,
      state: t(`apiKeys:states.${content.key.state}`),
      when: mailTime(content.found.at),
      where,
    };
    return {
      subject: t("mail:apiKeyLeaked.subject", values),
      paragraphs: [
        t("mail:apiKeyLeaked.greeting", values),
        t("mail:apiKeyLeaked.body", values),
        t("mail:apiKeyLeaked.advice"),
        t("mail:apiKeyLeaked.notRevoked"),
      ],
      action: t("mail:apiKeyLeaked.action"),
      linkIntro: t("mail:apiKeyLeaked.linkIntro"),
      note: t("mail:apiKeyLeaked.once", values),
    };
  });
  return composeMailIn(languages, parts, content.url);
}

interface MailFacts {
  email: string;
  person: string;
  language: string | null;
  organization: string;
  name: string;
  prefix: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
  source: string;
  url: string;
  firstReportedAt: Date;
}

export const sendLeakMail = taskWithPayload(
  "api key leak mail",
  payloadSchema,
  async ({ organizationId, apiKeyId, reportId, userId }, helpers) => {
    // Read when the mail goes out: the person must still be an owner or admin, the report still this
    // one (the key's row is gone with the organization; a later leak of a new secret has its own mail),
    // and the key must still have the secret that leaked: rotated since, that secret already fails
    // (as a revoked key's does), and the mail would name the new secret's prefix as the leaked one.
    const [facts] = await prisma.$queryRaw<MailFacts[]>`
    SELECT u.email, u.name AS person, u.language, o.name AS organization, k.name, k.prefix, k.revoked_at AS "revokedAt", k.expires_at AS "expiresAt",
           r.source, r.url, r.first_reported_at AS "firstReportedAt"
    FROM api_key_leak_reports r
    JOIN api_keys k ON k.organization_id = r.organization_id AND k.id = r.api_key_id
    JOIN organizations o ON o.id = r.organization_id
    JOIN memberships m ON m.organization_id = r.organization_id AND m.user_id = ${userId}::uuid AND m.role IN ('owner', 'admin')
    JOIN users u ON u.id = m.user_id AND u.deleted_at IS NULL
    WHERE r.organization_id = ${organizationId}::uuid AND r.api_key_id = ${apiKeyId}::uuid AND r.id = ${reportId}::uuid
      AND r.secret_hash = k.secret_hash`;
    if (!facts) return;
    const now = Date.now();
    const state = facts.revokedAt ? "revoked" : facts.expiresAt && facts.expiresAt.getTime() <= now ? "expired" : "active";
    // Revoked since the report (someone acted already): nothing left to ask of anyone.
    if (state === "revoked") return;
    const mail = leakMail(
      {
        person: facts.person,
        organization: facts.organization,
        key: { name: facts.name, prefix: facts.prefix, state },
        found: { at: facts.firstReportedAt, source: facts.source, url: facts.url },
        url: keyPageUrl(publicOrigin(), organizationId, facts.prefix),
      },
      mailLanguagesFor(facts.language),
    );
    await sendMail({ to: facts.email, ...mail, messageId: `<api-key-leak-${reportId}-${userId}-${helpers.job.id}@keyledger>` });
  },
);
