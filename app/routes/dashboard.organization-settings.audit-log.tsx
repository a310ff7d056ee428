// The tenant audit log (docs/contract.md): owners and admins of the active organization.
// Thin: parsing, reading and the view are shared with the platform-admin page.
import { titleMeta } from "~/components/page-title";
import type { Route } from "./+types/dashboard.organization-settings.audit-log";
import { ErrorPanel } from "~/components/error-page";
import { AuditLogView } from "~/audit/audit-log-view";
import { loadAuditPage } from "~/audit/query.server";
import { requireActiveOrganization } from "~/web/guards.server";
import { getInstance } from "~/i18n/i18next.server";
import { orHttpError } from "~/web/http-errors.server";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export async function loader(args: Route.LoaderArgs) {
  const access = await requireActiveOrganization(args, "audit:view");
  const page = await orHttpError(args.context, () => loadAuditPage(access, new URL(args.request.url).searchParams));
  return { title: getInstance(args.context).t("audit:page.title"), ...page };
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  return <AuditLogView loaderData={loaderData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}
