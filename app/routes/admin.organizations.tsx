// Every organization, for platform admins (fresh session), each linking to its support page.
import { useTranslation } from "~/i18n/use-translation";
import { Link } from "react-router";
import { titleMeta } from "~/components/page-title";
import type { Route } from "./+types/admin.organizations";
import { requirePlatformAdmin } from "~/web/guards.server";
import { planName } from "~/billing/plans";
import { useFormats } from "~/components/use-formats";
import { ErrorPanel } from "~/components/error-page";
import { Card, PageHeader } from "~/components/ui";
import { getInstance } from "~/i18n/i18next.server";
import { listAllOrganizations } from "~/organizations/admin.server";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export async function loader(args: Route.LoaderArgs) {
  const admin = await requirePlatformAdmin(args, { fresh: true });
  const organizations = await listAllOrganizations(admin);
  return {
    title: getInstance(args.context).t("admin:organizations.title"),
    organizations: organizations.map((o) => ({ ...o, planName: planName(o.planId) })),
  };
}

export default function AdminOrganizations({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const formats = useFormats();
  return (
    <div className="space-y-6">
      <PageHeader title={t("organizations.title")} description={t("organizations.description")} />
      <Card>
        {loaderData.organizations.length === 0 ? (
          <p className="text-sm text-slate-500">{t("organizations.empty")}</p>
        ) : (
          <ul className="-my-3 divide-y divide-slate-100">
            {loaderData.organizations.map((org) => (
              <li key={org.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{org.name}</p>
                  <p className="text-sm text-slate-500">
                    /{org.slug} · {org.planName} · {t("organizations.members")}: {org.members} · {t("organizations.created")}{" "}
                    {formats.date(org.createdAt)}
                  </p>
                </div>
                <Link to={`/admin/organizations/${org.id}`} className="text-sm font-semibold text-brand-600 hover:text-brand-700">
                  {t("organizations.open")} →
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}
