import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { titleMeta } from "~/components/page-title";
import type { Route } from "./+types/admin.organizations.$organizationId";
import { requirePlatformAdmin } from "~/auth/guards.server";
import { PLANS, isPlanId } from "~/billing/plans";
import { ErrorPanel } from "~/components/error-page";
import { ButtonLink, Card, PageHeader } from "~/components/ui";
import { orHttpError } from "~/lib/http-errors.server";
import { getOrganizationForAdmin } from "~/organizations/admin.server";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.organization.name);
}

export async function loader(args: Route.LoaderArgs) {
  await requirePlatformAdmin(args, { fresh: true });
  const organization = await orHttpError(args.context, () => getOrganizationForAdmin(args.params.organizationId));
  return { organization: { ...organization, planName: isPlanId(organization.planId) ? PLANS[organization.planId].name : organization.planId } };
}

export default function AdminOrganization({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("admin");
  const { organization } = loaderData;
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeZone: "UTC" });
  const rows: [string, string][] = [
    [t("organizations.slug"), `/${organization.slug}`],
    [t("organizations.plan"), organization.planName],
    [t("organizations.members"), String(organization.members)],
    [t("organizations.created"), date.format(new Date(organization.createdAt))],
    [t("organization.requireTwoFactor"), organization.requireTwoFactor ? t("organization.yes") : t("organization.no")],
  ];
  return (
    <div className="space-y-6">
      <Link to="/admin/organizations" className="text-sm font-medium text-slate-600 hover:text-slate-900">
        ← {t("organization.back")}
      </Link>
      <PageHeader title={organization.name} description={organization.id} />
      <Card title={t("organization.overview")}>
        <dl className="grid gap-4 sm:grid-cols-2">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
              <dd className="text-sm text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <Card title={t("organization.auditLog")} description={t("organization.auditLogDescription")}>
        <ButtonLink to={`/admin/organizations/${organization.id}/audit-log`}>{t("organization.auditLog")}</ButtonLink>
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}
