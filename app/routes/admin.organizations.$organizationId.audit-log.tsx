// The platform admin's view of an organization's audit log (docs/product-rules.md: same records, schemas, query
// logic, filters, pagination and detail panel as the tenant view; only authorization differs).
// No membership and no switch of the active organization.
import { useTranslation } from "~/i18n/use-translation";
import { Link, type ShouldRevalidateFunctionArgs } from "react-router";
import { titleMeta } from "~/components/page-title";
import type { Route } from "./+types/admin.organizations.$organizationId.audit-log";
import { AuditLogView, type AuditDetailQuery } from "~/audit/audit-log-view";
import { AUDIT_QUERY_CACHE, onlyDrawerChanged } from "~/audit/audit-query";
import { rpcQueries } from "~/client/rpc";
import { loadAuditPage } from "~/audit/query.server";
import { requireSupportAccess } from "~/web/guards.server";
import { ErrorPanel } from "~/components/error-page";
import { getInstance } from "~/i18n/i18next.server";
import { orHttpError } from "~/web/http-errors.server";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export async function loader(args: Route.LoaderArgs) {
  const access = await requireSupportAccess(args, args.params.organizationId);
  const { organization } = access;
  const page = await orHttpError(args.context, () => loadAuditPage(access, new URL(args.request.url).searchParams));
  return {
    title: `${getInstance(args.context).t("audit:page.title")} · ${organization.name}`,
    organization: { id: organization.id, name: organization.name },
    ...page,
  };
}

/** The drawer opens and closes without reloading the page's data (it loads its own). */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return !formMethod && onlyDrawerChanged(currentUrl, nextUrl) ? false : defaultShouldRevalidate;
}

export default function AdminAuditLog({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  // The support namespace: its own procedure, so its own cache keys.
  const detailQuery: AuditDetailQuery = (eventId) =>
    rpcQueries.support.auditLog.detail.queryOptions({
      input: { organizationId: loaderData.organization.id, eventId },
      ...AUDIT_QUERY_CACHE,
    });
  return (
    <div className="space-y-4">
      <Link to={`/admin/organizations/${loaderData.organization.id}`} className="text-sm font-medium text-slate-600 hover:text-slate-900">
        ← {loaderData.organization.name}
      </Link>
      <p className="sr-only">{t("organization.auditLogDescription")}</p>
      <AuditLogView loaderData={loaderData} detailQuery={detailQuery} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}
