// The tenant audit log (docs/contract.md): owners and admins of the active organization.
// Thin: parsing, reading and the view are shared with the platform-admin page.
import { organizationTitleMeta } from "~/components/page-title";
import type { Route } from "./+types/dashboard.organization-settings.audit-log";
import { AuditErrorPanel } from "~/audit/ui/audit-error-panel";
import { AuditLogView } from "~/audit/ui/audit-log-view";
import type { AuditDetailQuery } from "~/audit/ui/event-drawer";
import type { AuditExportOffer } from "~/audit/ui/export-card";
import { accessFor, auditExportBlocker } from "~/access/organization-access.server";
import { planName, planNamesWith } from "~/plans/catalog";
import { AUDIT_QUERY_CACHE } from "~/audit/audit-query";
import { loadAuditPage, redirectWithoutEmptyParameters } from "~/audit/audit-page.server";
import { rpcQueries } from "~/client/rpc";
import { requireActiveOrganization } from "~/web/guards.server";
import { translatorFor } from "~/i18n/i18next.server";
import { orHttpError } from "~/web/http-errors.server";
import { keepDataWhenOnlyDrawerChanged } from "~/web/revalidation";
import { ButtonLink } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import { STREAMS_PAGE_PATH } from "~/audit-streams/ui/stream-page";
import { INTEGRITY_PAGE_PATH } from "~/audit-integrity/ui/integrity-page";

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return organizationTitleMeta({ loaderData, matches });
}

export async function loader(args: Route.LoaderArgs) {
  const access = await requireActiveOrganization(args, "audit:view");
  redirectWithoutEmptyParameters(args.request);
  const page = await orHttpError(args.context, () => loadAuditPage(access, new URL(args.request.url).searchParams));
  const blocker = auditExportBlocker(access);
  // Those who may see the billing page are sent there when the plan or billing is the reason.
  const billingLink = accessFor(access, "billing:view") !== null;
  const exportOffer: AuditExportOffer =
    blocker === "plan"
      ? { blocker, planName: planName(access.organization.planId), exportPlans: planNamesWith("auditExport"), billingLink }
      : blocker === "billing"
        ? { blocker, billingLink }
        : { blocker };
  const canManageStreams = accessFor(access, "auditStream:manage") !== null;
  return { title: translatorFor(args.context)("audit:page.title"), exportOffer, canManageStreams, ...page };
}

/** The drawer opens and closes without reloading the page's data (it loads its own). */
export const shouldRevalidate = keepDataWhenOnlyDrawerChanged;

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("auditStreams");
  const integrity = useTranslation("auditIntegrity");
  const detailQuery: AuditDetailQuery = (eventId) =>
    rpcQueries.auditLog.detail.queryOptions({ input: { organizationId: loaderData.organizationId, eventId }, ...AUDIT_QUERY_CACHE });
  const headerActions = (
    <div className="flex flex-wrap gap-2">
      <ButtonLink to={INTEGRITY_PAGE_PATH} variant="secondary" data-testid="audit-integrity-link">
        {integrity.t("auditLogLink")}
      </ButtonLink>
      {loaderData.canManageStreams ? (
        <ButtonLink to={STREAMS_PAGE_PATH} variant="secondary" data-testid="audit-streams-link">
          {t("auditLogLink")}
        </ButtonLink>
      ) : null}
    </div>
  );
  return (
    <AuditLogView loaderData={loaderData} detailQuery={detailQuery} exportOffer={loaderData.exportOffer} headerActions={headerActions} />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AuditErrorPanel error={error} />;
}
