// One organization as a platform admin sees it: plan, billing state, members and owners, keys in
// use, created, two-factor rule, and the way into its audit log (which asks for a reason first).
// Support access: no membership involved.
import { useTranslation } from "~/i18n/use-translation";
import { href, Link } from "react-router";
import { titleMeta } from "~/components/page-title";
import type { Route } from "./+types/admin.organizations.$organizationId";
import { requireSupportTarget } from "~/web/guards.server";
import { planName } from "~/plans/catalog";
import { useFormats } from "~/components/use-formats";
import { organizationOverview } from "~/organizations/admin.server";
import { ErrorPanel } from "~/components/error-page";
import { Alert, ButtonLink, Card, PageHeader } from "~/components/ui";
import { presentGrant } from "~/support/support.server";
import { SupportBanner } from "~/support/ui/support-banner";
import { translatorFor } from "~/i18n/i18next.server";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export async function loader(args: Route.LoaderArgs) {
  const target = await requireSupportTarget(args, args.params.organizationId);
  const { id, name, slug, planId, billingState, requireTwoFactor } = target.organization;
  const overview = await organizationOverview(target);
  return {
    title: `${name} · ${translatorFor(args.context)("admin:sections.label")}`,
    organization: { id, name, slug, planName: planName(planId), billingState, requireTwoFactor, ...overview },
    grant: target.grant ? presentGrant(target.grant) : null,
    planChanged: new URL(args.request.url).searchParams.has("planChanged"),
  };
}

export default function AdminOrganization({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const formats = useFormats();
  const { organization, grant } = loaderData;
  const rows: [string, string][] = [
    [t("organizations.slug"), `/${organization.slug}`],
    [t("organization.plan"), organization.planName],
    [t("organization.billingState"), t(`billingStates.${organization.billingState}`, { defaultValue: organization.billingState })],
    [t("organizations.members"), formats.number(organization.members)],
    [t("organization.activeKeys"), formats.number(organization.activeKeys)],
    [t("organizations.created"), formats.date(organization.createdAt)],
    [t("organization.requireTwoFactor"), organization.requireTwoFactor ? t("organization.yes") : t("organization.no")],
  ];
  return (
    <div className="space-y-6">
      <Link to={href("/admin/organizations")} className="text-sm font-medium text-slate-600 hover:text-slate-900">
        ← {t("organization.back")}
      </Link>
      {grant ? <SupportBanner organization={organization} grant={grant} /> : null}
      {loaderData.planChanged ? (
        <Alert tone="success">{t("setPlan.done", { organization: organization.name, plan: organization.planName })}</Alert>
      ) : null}
      <PageHeader title={organization.name} description={organization.id} />
      <Card title={t("organization.overview")}>
        <dl className="grid gap-4 sm:grid-cols-2">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</dt>
              <dd className="text-sm break-words text-slate-900">{value}</dd>
            </div>
          ))}
          <div className="sm:col-span-2">
            <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{t("organization.owners")}</dt>
            <dd className="text-sm text-slate-900">
              {organization.owners.length === 0 ? (
                t("organization.noOwners")
              ) : (
                <ul className="space-y-0.5">
                  {organization.owners.map((owner) => (
                    <li key={owner.id} className="break-words">
                      {owner.name} <span className="text-slate-500">&lt;{owner.email}&gt;</span>
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </div>
        </dl>
      </Card>
      <Card title={t("setPlan.card")} description={t("setPlan.cardDescription")}>
        <ButtonLink to={href("/admin/organizations/:organizationId/plan", { organizationId: organization.id })} variant="secondary">
          {t("setPlan.open")}
        </ButtonLink>
      </Card>
      <Card title={t("organization.auditLog")} description={t("organization.auditLogDescription")}>
        <p className="mb-4 text-sm text-slate-600">{t("organization.auditLogReason")}</p>
        <div className="flex flex-wrap items-center gap-4">
          <ButtonLink to={href("/admin/organizations/:organizationId/audit-log", { organizationId: organization.id })}>
            {t("organization.openAuditLog")}
          </ButtonLink>
          <Link
            to={`${href("/admin/support-records")}?organizationId=${organization.id}`}
            className="text-sm font-medium text-brand-600 hover:text-brand-700"
          >
            {t("organization.supportRecords")}
          </Link>
        </div>
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}
