// The platform admin's view of an organization's audit log (docs/product-rules.md: same records, schemas, query
// logic, filters, pagination and detail drawer as the tenant view; only authorization differs).
// No membership and no switch of the active organization, no export. The session must have opened
// support access with a reason first (else: the reason page, which comes back here), and every view
// is recorded in the support records (app/support/support.server.ts).
import { useTranslation } from "~/i18n/use-translation";
import { href, redirect } from "react-router";
import { titleMeta } from "~/components/page-title";
import type { Route } from "./+types/admin.organizations.$organizationId.audit-log";
import { AuditLogView } from "~/audit/ui/audit-log-view";
import type { AuditDetailQuery } from "~/audit/ui/event-drawer";
import { AUDIT_QUERY_CACHE } from "~/audit/audit-query";
import { redirectWithoutEmptyParameters } from "~/audit/audit-page.server";
import { rpcQueries } from "~/client/rpc";
import { supportAccessOf } from "~/access/organization-access.server";
import { requireSupportTarget } from "~/web/guards.server";
import { AuditErrorPanel } from "~/audit/ui/audit-error-panel";
import { translatorFor } from "~/i18n/i18next.server";
import { orHttpError } from "~/web/http-errors.server";
import { presentGrant, supportAuditPage } from "~/support/support.server";
import { SupportBanner } from "~/support/ui/support-banner";
import { keepDataWhenOnlyDrawerChanged } from "~/web/revalidation";
import { BackToOrganization } from "~/support/ui/back-to-organization";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export async function loader(args: Route.LoaderArgs) {
  const target = await requireSupportTarget(args, args.params.organizationId);
  redirectWithoutEmptyParameters(args.request);
  const access = supportAccessOf(target);
  if (!access) {
    const url = new URL(args.request.url);
    const here = `${url.pathname}${url.search}`;
    const access = href("/admin/organizations/:organizationId/access", { organizationId: target.organization.id });
    throw redirect(`${access}?redirectTo=${encodeURIComponent(here)}`);
  }
  const { organization } = access;
  const page = await orHttpError(args.context, () =>
    supportAuditPage(access, new URL(args.request.url).searchParams, { disclosed: args.request.method !== "HEAD" }),
  );
  return {
    title: `${translatorFor(args.context)("audit:page.title")} · ${organization.name}`,
    organization: { id: organization.id, name: organization.name },
    grant: presentGrant(access.grant),
    ...page,
  };
}

/** The drawer opens and closes without reloading the page's data (it loads its own). */
export const shouldRevalidate = keepDataWhenOnlyDrawerChanged;

export default function AdminAuditLog({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  // The support namespace: its own procedure, so its own cache keys (and its own record of each detail opened).
  const detailQuery: AuditDetailQuery = (eventId) =>
    rpcQueries.support.auditLog.detail.queryOptions({
      input: { organizationId: loaderData.organization.id, eventId },
      ...AUDIT_QUERY_CACHE,
    });
  return (
    <div className="space-y-4">
      <BackToOrganization organization={loaderData.organization} />
      <SupportBanner organization={loaderData.organization} grant={loaderData.grant} />
      <p className="sr-only">{t("organization.auditLogDescription")}</p>
      <AuditLogView loaderData={loaderData} detailQuery={detailQuery} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AuditErrorPanel error={error} />;
}
