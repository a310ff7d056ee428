// The audit log's integrity (docs/contract.md): owners and admins see whether the log is sealed and
// verify it against its signed digests. Thin: the verification is app/audit-integrity/, the parts
// app/audit-integrity/ui/. The form posts (works without JavaScript); members get the refusal the
// audit pages give (audit:view).
import { data } from "react-router";
import type { Route } from "./+types/dashboard.organization-settings.audit-log.integrity";
import { integrityOverview } from "~/audit-integrity/overview.server";
import { AUDIT_LOG_PATH } from "~/audit-integrity/ui/integrity-page";
import { SealingCard } from "~/audit-integrity/ui/sealing-card";
import { VerdictPanel } from "~/audit-integrity/ui/verdict-panel";
import { VerifyForm } from "~/audit-integrity/ui/verify-form";
import type { Verdict } from "~/audit-integrity/verdict";
import { verifyRangeSchema } from "~/audit-integrity/verify-range";
import { verifyAuditLogFor } from "~/audit-integrity/verify-request.server";
import { AuditErrorPanel } from "~/audit/ui/audit-error-panel";
import { organizationTitleMeta } from "~/components/page-title";
import { ButtonLink, PageHeader } from "~/components/ui";
import { translatorFor } from "~/i18n/i18next.server";
import { useTranslation } from "~/i18n/use-translation";
import { noStoreFormHeaders, parseForm, withFormErrors } from "~/web/forms.server";
import { requireActiveOrganization } from "~/web/guards.server";
import type { SubmissionResult } from "@conform-to/react";

interface VerifyActionData {
  reply: SubmissionResult<string[]>;
  verdict: Verdict | null;
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return organizationTitleMeta({ loaderData, matches });
}

/** A refusal's Retry-After (one verification at a time, the budget) goes along with the page. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return noStoreFormHeaders(actionHeaders);
}

export async function loader(args: Route.LoaderArgs) {
  const access = await requireActiveOrganization(args, "audit:view");
  return {
    title: translatorFor(args.context)("auditIntegrity:title"),
    organizationName: access.organization.name,
    overview: await integrityOverview(access.organization.id),
  };
}

export async function action(args: Route.ActionArgs) {
  const access = await requireActiveOrganization(args, "audit:view");
  const { submission } = await parseForm(args, verifyRangeSchema);
  if (submission.status !== "success") return data<VerifyActionData>({ reply: submission.reply(), verdict: null }, { status: 400 });
  const result = await withFormErrors(args.context, submission, () => verifyAuditLogFor(access, submission.value));
  if (!result.ok) return data<VerifyActionData>({ reply: result.reply, verdict: null }, result.init);
  return data<VerifyActionData>({ reply: submission.reply(), verdict: result.value });
}

export default function AuditLogIntegrityPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auditIntegrity");
  return (
    <div className="space-y-6" data-testid="audit-integrity-page">
      <PageHeader
        title={t("title")}
        description={t("description", { organization: loaderData.organizationName })}
        actions={
          <ButtonLink to={AUDIT_LOG_PATH} variant="secondary">
            {t("backToLog")}
          </ButtonLink>
        }
      />
      <SealingCard overview={loaderData.overview} />
      <VerifyForm lastResult={actionData?.reply} />
      {actionData?.verdict ? <VerdictPanel verdict={actionData.verdict} /> : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AuditErrorPanel error={error} />;
}
