import { useTranslation } from "react-i18next";
import { Form, NavLink, Outlet } from "react-router";
import type { Route } from "./+types/dashboard";
import { requireUser } from "~/auth/guards.server";
import { LanguageSwitch } from "~/components/language-switch";
import { Logo } from "~/components/logo";
import { cx } from "~/components/ui";
import { listOrganizationsOf } from "~/organizations/organizations.server";
import { roleHas } from "~/organizations/permissions";

export async function loader(args: Route.LoaderArgs) {
  const auth = requireUser(args);
  const organizations = await listOrganizationsOf(auth.user.id);
  const active = organizations.find((o) => o.id === auth.session.activeOrganizationId) ?? null;
  return {
    user: { name: auth.user.name, email: auth.user.email, isPlatformAdmin: auth.user.isPlatformAdmin },
    organizations,
    active,
    canManageKeys: active ? roleHas(active.role, "apiKey:manage") : false,
    canViewAudit: active ? roleHas(active.role, "audit:view") : false,
  };
}

function NavItems({ loaderData }: { loaderData: Route.ComponentProps["loaderData"] }) {
  const { t } = useTranslation();
  const items = [
    { to: "/dashboard", label: t("nav.dashboard"), end: true, show: true },
    { to: "/dashboard/organization-settings", label: t("nav.organizationSettings"), end: true, show: Boolean(loaderData.active) },
    { to: "/dashboard/organization-settings/api-keys", label: t("nav.apiKeys"), end: false, show: loaderData.canManageKeys },
    { to: "/dashboard/organization-settings/audit-log", label: t("nav.auditLog"), end: false, show: loaderData.canViewAudit },
    { to: "/dashboard/account/security", label: t("nav.security"), end: false, show: true },
  ];
  return (
    <ul className="space-y-1">
      {items
        .filter((item) => item.show)
        .map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.end}
              className={({ isActive }) =>
                cx(
                  "block rounded-md px-3 py-2 text-sm font-medium",
                  isActive ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
                )
              }
            >
              {item.label}
            </NavLink>
          </li>
        ))}
    </ul>
  );
}

function OrganizationSwitcher({ loaderData }: { loaderData: Route.ComponentProps["loaderData"] }) {
  const { t } = useTranslation();
  if (loaderData.organizations.length === 0) {
    return (
      <a href="/dashboard/organizations/new" className="block rounded-md border border-dashed border-slate-300 px-3 py-2 text-sm text-slate-600 hover:border-brand-500">
        + {t("orgSwitcher.create")}
      </a>
    );
  }
  return (
    <Form method="post" action="/dashboard?index" className="space-y-2" aria-label={t("orgSwitcher.label")}>
      <input type="hidden" name="intent" value="switch" />
      <label htmlFor="org-switcher" className="block text-xs font-semibold uppercase tracking-wide text-slate-500">
        {t("orgSwitcher.label")}
      </label>
      <div className="flex gap-2">
        <select
          id="org-switcher"
          name="organizationId"
          defaultValue={loaderData.active?.id ?? ""}
          key={loaderData.active?.id ?? "none"}
          className="min-w-0 flex-1 rounded-md border-0 bg-white py-1.5 pl-2 pr-7 text-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-brand-600"
          onChange={(event) => event.currentTarget.form?.requestSubmit()}
        >
          {!loaderData.active ? <option value="">{t("orgSwitcher.none")}</option> : null}
          {loaderData.organizations.map((organization) => (
            <option key={organization.id} value={organization.id}>
              {organization.name}
            </option>
          ))}
        </select>
        <noscript>
          <button type="submit" className="rounded-md bg-white px-2 text-sm ring-1 ring-slate-300">
            {t("orgSwitcher.switch")}
          </button>
        </noscript>
      </div>
      <a href="/dashboard/organizations/new" className="block text-xs font-medium text-brand-600 hover:text-brand-700">
        + {t("orgSwitcher.create")}
      </a>
    </Form>
  );
}

function UserMenu({ loaderData }: { loaderData: Route.ComponentProps["loaderData"] }) {
  const { t } = useTranslation();
  const initials = loaderData.user.name.split(/\s+/).map((part) => part[0]).join("").slice(0, 2).toUpperCase();
  return (
    <details className="group relative">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-full p-1 hover:bg-slate-100" aria-label={t("userMenu.label")}>
        <span className="flex h-8 w-8 items-center justify-center rounded-full bg-brand-600 text-xs font-semibold text-white">{initials}</span>
        <span className="hidden text-sm font-medium text-slate-700 sm:inline">{loaderData.user.name}</span>
      </summary>
      <div className="absolute right-0 z-20 mt-2 w-64 rounded-lg bg-white p-2 shadow-lg ring-1 ring-slate-200">
        <div className="border-b border-slate-100 px-3 py-2">
          <p className="text-xs text-slate-500">{t("userMenu.signedInAs")}</p>
          <p className="truncate text-sm font-medium text-slate-900">{loaderData.user.email}</p>
          {loaderData.user.isPlatformAdmin ? <p className="mt-1 text-xs font-medium text-brand-700">{t("userMenu.platformAdmin")}</p> : null}
        </div>
        <a href="/dashboard/account/security" className="block rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100">
          {t("userMenu.security")}
        </a>
        <Form method="post" action="/logout">
          <button type="submit" className="block w-full rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100">
            {t("userMenu.signOut")}
          </button>
        </Form>
      </div>
    </details>
  );
}

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="min-h-full">
      <header className="sticky top-0 z-10 border-b border-slate-200 bg-white/90 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6">
          <div className="flex items-center gap-3">
            <details className="lg:hidden">
              <summary className="cursor-pointer list-none rounded-md p-2 text-slate-700 hover:bg-slate-100" aria-label={t("nav.openMenu")}>
                <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true"><path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" /></svg>
              </summary>
              <div className="absolute left-0 right-0 top-14 z-20 space-y-4 border-b border-slate-200 bg-white p-4 shadow-lg">
                <OrganizationSwitcher loaderData={loaderData} />
                <nav aria-label={t("nav.mainNavigation")}>
                  <NavItems loaderData={loaderData} />
                </nav>
              </div>
            </details>
            <Logo />
          </div>
          <div className="flex items-center gap-2">
            <LanguageSwitch className="hidden sm:flex" />
            <UserMenu loaderData={loaderData} />
          </div>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl gap-8 px-4 py-6 sm:px-6 lg:py-8">
        <aside className="hidden w-60 shrink-0 space-y-6 lg:block">
          <OrganizationSwitcher loaderData={loaderData} />
          <nav aria-label={t("nav.mainNavigation")}>
            <NavItems loaderData={loaderData} />
          </nav>
        </aside>
        <main className="min-w-0 flex-1">
          <Outlet />
          <LanguageSwitch className="mt-10 justify-center sm:hidden" />
        </main>
      </div>
    </div>
  );
}
