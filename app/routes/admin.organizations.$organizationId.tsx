// One organization as a platform admin sees it: plan, members, created, two-factor rule, and a link
// to its audit log. Support access: no membership involved.
import { useTranslation } from "~/i18n/use-translation";
import { Link } from "react-router";
import { titleMeta } from "~/components/page-title";
import type { Route } from "./+types/admin.organizations.$organizationId";
import { requireSupportAccess } from "~/web/guards.server";
import { planName } from "~/billing/plans";
import { useFormats } from "~/components/use-formats";
import { organizationOverview } from "~/organizations/admin.server";
import { ErrorPanel } from "~/components/error-page";
import { ButtonLink, Card, PageHeader } from "~/components/ui";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.organization.name);
}

export async function loader(args: Route.LoaderArgs) {
  const support = await requireSupportAccess(args, args.params.organizationId);
  const { id, name, slug, planId, requireTwoFactor } = support.organization;
  const overview = await organizationOverview(support);
  return { organization: { id, name, slug, planName: planName(planId), requireTwoFactor, ...overview } };
}

export default function AdminOrganization({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const formats = useFormats();
  const { organization } = loaderData;
  const rows: [string, string][] = [
    [t("organizations.slug"), `/${organization.slug}`],
    [t("organizations.plan"), organization.planName],
    [t("organizations.members"), String(organization.members)],
    [t("organizations.created"), formats.date(organization.createdAt)],
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
