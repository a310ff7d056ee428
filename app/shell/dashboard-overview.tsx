// The dashboard's home: the active organization with shortcuts, the user's organizations with a
// switch button each, and the account's two-factor status. Reads the app shell's data.
import { useTranslation } from "~/i18n/use-translation";
import { Form, href, Link } from "react-router";
import { planName } from "~/plans/catalog";
import { Badge, Button, ButtonLink, Card, PageHeader } from "~/components/ui";
import type { AppShellData } from "~/shell/app-shell.server";

function OrganizationMark({ name, size = "md" }: { name: string; size?: "md" | "lg" }) {
  return (
    <span
      aria-hidden="true"
      className={
        size === "lg"
          ? "flex h-12 w-12 shrink-0 items-center justify-center rounded-lg bg-brand-600 text-lg font-semibold text-on-accent"
          : "flex h-9 w-9 shrink-0 items-center justify-center rounded-md bg-slate-100 text-sm font-semibold text-slate-700 ring-1 ring-slate-200"
      }
    >
      {name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}

function Shortcut({ to, title, hint }: { to: string; title: string; hint: string }) {
  return (
    <li>
      <Link
        to={to}
        className="group flex h-full flex-col rounded-lg p-4 ring-1 ring-slate-200 transition hover:bg-slate-50 hover:ring-brand-300"
      >
        <span className="flex items-center justify-between gap-2 text-sm font-semibold text-slate-900">
          {title}
          <span aria-hidden="true" className="text-slate-400 transition-transform group-hover:translate-x-0.5 group-hover:text-brand-600">
            →
          </span>
        </span>
        <span className="mt-1 text-sm text-slate-500">{hint}</span>
      </Link>
    </li>
  );
}

export function DashboardOverview({
  user,
  layout,
}: {
  user: { name: string; twoFactorEnabled: boolean };
  layout: AppShellData | undefined;
}) {
  const { t } = useTranslation("organizations");
  const { t: tc } = useTranslation("common");
  const organizations = layout?.organizations ?? [];
  const active = layout?.active ?? null;
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("dashboard.welcome", { name: user.name })}
        actions={
          organizations.length > 0 ? (
            <ButtonLink to={href("/dashboard/organizations/new")} variant="secondary">
              <span aria-hidden="true">+</span> {tc("orgSwitcher.create")}
            </ButtonLink>
          ) : null
        }
      />
      {active ? (
        <Card title={t("dashboard.activeOrganization")}>
          <div className="flex flex-wrap items-center justify-between gap-4">
            <div className="flex min-w-0 items-center gap-4">
              <OrganizationMark name={active.name} size="lg" />
              <div className="min-w-0">
                <p className="truncate text-lg font-semibold text-slate-900" data-testid="active-organization">
                  {active.name}
                </p>
                <p className="truncate font-mono text-sm text-slate-500">/{active.slug}</p>
              </div>
            </div>
            <div className="flex flex-wrap gap-2">
              {active.role ? <Badge tone="brand">{t("dashboard.yourRole", { role: tc(`roles.${active.role}`) })}</Badge> : null}
              <Badge>{t("dashboard.plan", { plan: planName(active.planId) })}</Badge>
            </div>
          </div>
          <ul className="mt-5 grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
            <Shortcut
              to={href("/dashboard/organization-settings")}
              title={tc("nav.organizationSettings")}
              hint={t("dashboard.settingsHint")}
            />
            {layout?.canManageKeys ? (
              <Shortcut
                to={href("/dashboard/organization-settings/api-keys")}
                title={tc("nav.apiKeys")}
                hint={t("dashboard.apiKeysHint")}
              />
            ) : null}
            {layout?.canViewAudit ? (
              <Shortcut
                to={href("/dashboard/organization-settings/audit-log")}
                title={tc("nav.auditLog")}
                hint={t("dashboard.auditLogHint")}
              />
            ) : null}
          </ul>
        </Card>
      ) : (
        <Card>
          <div className="flex flex-col items-center px-2 py-8 text-center">
            <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-600" aria-hidden="true">
              <svg
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.6"
                strokeLinecap="round"
                strokeLinejoin="round"
                className="h-6 w-6"
              >
                <path d="M4 20V6.5A1.5 1.5 0 0 1 5.5 5H12v15M12 9h6.5A1.5 1.5 0 0 1 20 10.5V20M2.5 20h19M7 9h2M7 12.5h2M7 16h2M15 13h2M15 16h2" />
              </svg>
            </span>
            <h2 className="mt-4 text-base font-semibold text-slate-900">{t("dashboard.noOrganizationsTitle")}</h2>
            <p className="mt-1 max-w-md text-sm text-slate-600">{t("dashboard.noOrganizations")}</p>
            <ButtonLink to={href("/dashboard/organizations/new")} className="mt-6">
              {t("dashboard.createFirst")}
            </ButtonLink>
          </div>
        </Card>
      )}
      {organizations.length > 0 ? (
        <Card title={t("dashboard.yourOrganizations")}>
          <ul className="-my-3 divide-y divide-slate-100">
            {organizations.map((organization) => (
              <li key={organization.id} className="flex items-center justify-between gap-3 py-3">
                <div className="flex min-w-0 items-center gap-3">
                  <OrganizationMark name={organization.name} />
                  <div className="min-w-0">
                    <p className="truncate font-medium text-slate-900">{organization.name}</p>
                    <p className="text-sm text-slate-500">{tc(`roles.${organization.role}`)}</p>
                  </div>
                </div>
                {organization.id === active?.id ? (
                  <Badge tone="green">{t("dashboard.active")}</Badge>
                ) : (
                  <Form method="post" className="shrink-0">
                    <input type="hidden" name="intent" value="switch" />
                    <input type="hidden" name="organizationId" value={organization.id} />
                    <Button type="submit" variant="secondary" aria-label={`${t("dashboard.switchTo")} ${organization.name}`}>
                      {t("dashboard.switch")}
                    </Button>
                  </Form>
                )}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-4">
          <div className="flex min-w-0 items-center gap-3">
            <span
              aria-hidden="true"
              className={
                user.twoFactorEnabled
                  ? "flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-emerald-50 text-emerald-600"
                  : "flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-amber-50 text-amber-600"
              }
            >
              <svg
                viewBox="0 0 20 20"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.6"
                strokeLinecap="round"
                strokeLinejoin="round"
                className="h-5 w-5"
              >
                <path d="M10 3 4.5 5v4.6c0 3.3 2.3 6 5.5 7.4 3.2-1.4 5.5-4.1 5.5-7.4V5L10 3Z" />
                {user.twoFactorEnabled ? <path d="m7.8 10.1 1.6 1.6 3-3.2" /> : <path d="M10 7.5v3M10 13h.01" />}
              </svg>
            </span>
            <p className="text-sm text-slate-700">{user.twoFactorEnabled ? t("dashboard.twoFactorOn") : t("dashboard.twoFactorOff")}</p>
          </div>
          <Link to={href("/dashboard/account/security")} className="rounded text-sm font-semibold text-brand-600 hover:text-brand-700">
            {t("dashboard.manageSecurity")} <span aria-hidden="true">→</span>
          </Link>
        </div>
      </Card>
    </div>
  );
}
