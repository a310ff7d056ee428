// The signed-in frame around the dashboard and the admin pages: header with language switch and
// user menu, organization switcher, navigation (a sidebar on desktop, a <details> menu on phones).
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, Link, NavLink, Outlet, useLocation } from "react-router";
import type { AppShellData } from "~/shell/app-shell.server";
import { LanguageSwitch } from "~/components/language-switch";
import { Logo } from "~/components/logo";
import { cx } from "~/components/ui";
import { logoPath } from "~/organizations/logo-path";

type LayoutData = AppShellData;

const ICONS: Record<string, ReactNode> = {
  dashboard: <path d="M3 10.5 10 4l7 6.5M5 9v7.25c0 .41.34.75.75.75H8.5v-4.5h3V17h2.75c.41 0 .75-.34.75-.75V9" />,
  settings: (
    <>
      <path d="M8.6 3.2h2.8l.45 2.05 1.5.87 2-.65 1.4 2.42-1.56 1.41v1.74l1.56 1.41-1.4 2.42-2-.65-1.5.87-.45 2.05H8.6l-.45-2.05-1.5-.87-2 .65-1.4-2.42 1.56-1.41V9.3L3.25 7.9l1.4-2.42 2 .65 1.5-.87Z" />
      <circle cx="10" cy="10" r="2.25" />
    </>
  ),
  apiKeys: <path d="M11.8 8.2a3.3 3.3 0 1 1-1.03-2.4M11.8 8.2 17 13.4V16h-2.6v-1.6h-1.6v-1.6h-1.6l-1.65-1.65" />,
  members: (
    <path d="M7.5 9a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Zm-4.5 7c0-2.5 2-4.5 4.5-4.5S12 13.5 12 16M13 4.3a2.5 2.5 0 0 1 0 4.4M14.5 11.8c1.5.6 2.5 2.2 2.5 4.2" />
  ),
  billing: (
    <path d="M3 6.75A1.75 1.75 0 0 1 4.75 5h10.5c.97 0 1.75.78 1.75 1.75v6.5c0 .97-.78 1.75-1.75 1.75H4.75A1.75 1.75 0 0 1 3 13.25v-6.5ZM3 8.5h14M6 12h3" />
  ),
  auditLog: <path d="M6 4h8.25c.41 0 .75.34.75.75v10.5c0 .41-.34.75-.75.75H5.75a.75.75 0 0 1-.75-.75V5M8 8h5M8 11h5M8 14h3" />,
  account: <path d="M10 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm-5.5 6.5c.4-2.8 2.7-4.5 5.5-4.5s5.1 1.7 5.5 4.5" />,
  security: <path d="M10 3 4.5 5v4.6c0 3.3 2.3 6 5.5 7.4 3.2-1.4 5.5-4.1 5.5-7.4V5L10 3Zm-2.2 7.1 1.6 1.6 3-3.2" />,
  admin: <path d="M4 5.5h12M4 10h12M4 14.5h7M15 13l1.5 1.5L19 12" />,
};

function NavIcon({ name }: { name: string }) {
  return (
    <svg
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className="h-5 w-5 shrink-0"
    >
      {ICONS[name]}
    </svg>
  );
}

function NavItems({ loaderData }: { loaderData: LayoutData }) {
  const { t } = useTranslation();
  const items = [
    { to: "/dashboard", icon: "dashboard", label: t("nav.dashboard"), end: true, show: true },
    {
      to: "/dashboard/organization-settings",
      icon: "settings",
      label: t("nav.organizationSettings"),
      end: true,
      show: Boolean(loaderData.active),
    },
    {
      to: "/dashboard/organization-settings/members",
      icon: "members",
      label: t("nav.members"),
      end: false,
      show: Boolean(loaderData.active),
    },
    {
      to: "/dashboard/organization-settings/api-keys",
      icon: "apiKeys",
      label: t("nav.apiKeys"),
      end: false,
      show: loaderData.canManageKeys,
    },
    {
      to: "/dashboard/organization-settings/audit-log",
      icon: "auditLog",
      label: t("nav.auditLog"),
      end: false,
      show: loaderData.canViewAudit,
    },
    {
      to: "/dashboard/organization-settings/billing",
      icon: "billing",
      label: t("nav.billing"),
      end: false,
      show: loaderData.canViewBilling,
    },
    { to: "/dashboard/account", icon: "account", label: t("nav.account"), end: true, show: true },
    { to: "/dashboard/account/security", icon: "security", label: t("nav.security"), end: false, show: true },
    { to: "/admin", icon: "admin", label: t("admin:nav"), end: false, show: loaderData.user.isPlatformAdmin },
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
                  "group flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors",
                  isActive ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
                )
              }
            >
              {({ isActive }) => (
                <>
                  <span className={isActive ? "text-brand-600" : "text-slate-400 group-hover:text-slate-600"}>
                    <NavIcon name={item.icon} />
                  </span>
                  <span className="min-w-0 truncate">{item.label}</span>
                </>
              )}
            </NavLink>
          </li>
        ))}
    </ul>
  );
}

/** Rendered twice (sidebar and phone menu), so its ids take a prefix. */
function OrganizationSwitcher({ loaderData, idPrefix }: { loaderData: LayoutData; idPrefix: string }) {
  const { t } = useTranslation();
  const selectId = `${idPrefix}-org-switcher`;
  if (loaderData.organizations.length === 0) {
    return (
      <Link
        to="/dashboard/organizations/new"
        className="flex items-center gap-2 rounded-lg border border-dashed border-slate-300 px-3 py-2.5 text-sm font-medium text-slate-600 hover:border-brand-500 hover:text-brand-700"
      >
        <span aria-hidden="true" className="text-base leading-none">
          +
        </span>
        {t("orgSwitcher.create")}
      </Link>
    );
  }
  return (
    <Form method="post" action="/dashboard" className="space-y-2" aria-label={t("orgSwitcher.label")}>
      <input type="hidden" name="intent" value="switch" />
      <label htmlFor={selectId} className="block text-xs font-semibold uppercase tracking-wide text-slate-500">
        {t("orgSwitcher.label")}
      </label>
      <div className="flex gap-2">
        {loaderData.active?.logoId ? (
          // Decorative: the select beside it names the organization.
          <img
            src={logoPath(loaderData.active.id, loaderData.active.logoId)}
            alt=""
            className="h-9 w-9 shrink-0 rounded-md bg-white object-contain ring-1 ring-slate-200"
          />
        ) : null}
        <div className="relative min-w-0 flex-1">
          <select
            id={selectId}
            name="organizationId"
            defaultValue={loaderData.active?.id ?? ""}
            key={loaderData.active?.id ?? "none"}
            className="block w-full appearance-none truncate rounded-md border-0 bg-white py-2 pl-3 pr-9 text-sm font-medium text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 outline-none hover:ring-slate-400 focus:ring-2 focus:ring-brand-600"
            onChange={(event) => event.currentTarget.form?.requestSubmit()}
          >
            {!loaderData.active ? <option value="">{t("orgSwitcher.none")}</option> : null}
            {loaderData.organizations.map((organization) => (
              <option key={organization.id} value={organization.id}>
                {organization.name}
              </option>
            ))}
          </select>
          <svg
            viewBox="0 0 20 20"
            fill="currentColor"
            aria-hidden="true"
            className="pointer-events-none absolute right-2.5 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500"
          >
            <path
              fillRule="evenodd"
              d="M10 3a.75.75 0 0 1 .55.24l3.25 3.5a.75.75 0 1 1-1.1 1.02L10 4.85 7.3 7.76a.75.75 0 0 1-1.1-1.02l3.25-3.5A.75.75 0 0 1 10 3Zm-3.76 9.2a.75.75 0 0 1 1.06.04L10 15.15l2.7-2.91a.75.75 0 1 1 1.1 1.02l-3.25 3.5a.75.75 0 0 1-1.1 0l-3.25-3.5a.75.75 0 0 1 .04-1.06Z"
              clipRule="evenodd"
            />
          </svg>
        </div>
        <noscript>
          <button type="submit" className="rounded-md bg-white px-3 text-sm font-medium ring-1 ring-slate-300">
            {t("orgSwitcher.switch")}
          </button>
        </noscript>
      </div>
      <Link
        to="/dashboard/organizations/new"
        className="inline-flex items-center gap-1 rounded text-xs font-medium text-brand-600 hover:text-brand-700"
      >
        <span aria-hidden="true">+</span> {t("orgSwitcher.create")}
      </Link>
    </Form>
  );
}

function UserMenu({ loaderData }: { loaderData: LayoutData }) {
  const { t } = useTranslation();
  const initials =
    loaderData.user.name
      .split(/\s+/)
      .filter(Boolean)
      .map((part) => part[0])
      .join("")
      .slice(0, 2)
      .toUpperCase() || "?";
  return (
    <details className="group relative" data-menu>
      <summary className="flex list-none items-center gap-2 rounded-full p-1 hover:bg-slate-100 sm:pr-2" aria-label={t("userMenu.label")}>
        <span className="flex h-8 w-8 items-center justify-center rounded-full bg-brand-600 text-xs font-semibold text-white">
          {initials}
        </span>
        <span className="hidden max-w-40 truncate text-sm font-medium text-slate-700 sm:inline">{loaderData.user.name}</span>
        <svg
          viewBox="0 0 20 20"
          fill="currentColor"
          aria-hidden="true"
          className="hidden h-4 w-4 text-slate-400 transition-transform group-open:rotate-180 sm:block"
        >
          <path
            fillRule="evenodd"
            d="M5.22 8.22a.75.75 0 0 1 1.06 0L10 11.94l3.72-3.72a.75.75 0 1 1 1.06 1.06l-4.25 4.25a.75.75 0 0 1-1.06 0L5.22 9.28a.75.75 0 0 1 0-1.06Z"
            clipRule="evenodd"
          />
        </svg>
      </summary>
      <div className="absolute right-0 z-30 mt-2 w-64 max-w-[calc(100vw-2rem)] rounded-lg bg-white p-1.5 shadow-lg ring-1 ring-slate-900/10">
        <div className="border-b border-slate-100 px-3 pb-2.5 pt-2">
          <p className="text-xs text-slate-500">{t("userMenu.signedInAs")}</p>
          <p className="mt-0.5 truncate text-sm font-semibold text-slate-900">{loaderData.user.name}</p>
          <p className="truncate text-sm text-slate-600">{loaderData.user.email}</p>
          {loaderData.user.isPlatformAdmin ? (
            <p className="mt-1 text-xs font-medium text-brand-700">{t("userMenu.platformAdmin")}</p>
          ) : null}
        </div>
        <div className="py-1">
          <Link
            to="/dashboard/account/security"
            className="block rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100 hover:text-slate-900"
          >
            {t("userMenu.security")}
          </Link>
          <Form method="post" action="/logout">
            <button
              type="submit"
              className="block w-full rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 hover:text-slate-900"
            >
              {t("userMenu.signOut")}
            </button>
          </Form>
        </div>
      </div>
    </details>
  );
}

/** The <details> menus work without JavaScript; with it they also close on navigation, Escape and outside clicks. */
function useClosingMenus() {
  const location = useLocation();
  useEffect(() => {
    for (const menu of document.querySelectorAll<HTMLDetailsElement>("details[data-menu][open]")) menu.open = false;
  }, [location.key]);
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      for (const menu of document.querySelectorAll<HTMLDetailsElement>("details[data-menu][open]")) {
        const target = event.target as Element;
        if (!menu.contains(target) || target.closest?.("[data-menu-backdrop]")) menu.open = false;
      }
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      for (const menu of document.querySelectorAll<HTMLDetailsElement>("details[data-menu][open]")) {
        menu.open = false;
        menu.querySelector("summary")?.focus();
      }
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, []);
}

/** The signed-in frame around every dashboard and admin page: header, menus, navigation. */
export function AppShell({ loaderData }: { loaderData: AppShellData }) {
  const { t } = useTranslation();
  useClosingMenus();
  return (
    <div className="min-h-full">
      {/* Keyboard users reach the page's content without tabbing through the header and navigation. */}
      <a
        href="#content"
        className="sr-only rounded-md bg-white px-3 py-2 text-sm font-semibold text-brand-700 shadow ring-2 ring-brand-600 focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
      >
        {t("nav.skipToContent")}
      </a>
      <header className="sticky top-0 z-20 border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6 lg:px-8">
          <div className="flex min-w-0 items-center gap-2">
            <details className="group lg:hidden" data-menu>
              <summary className="-ml-2 flex list-none rounded-md p-2 text-slate-700 hover:bg-slate-100" aria-label={t("nav.openMenu")}>
                <svg width="22" height="22" viewBox="0 0 20 20" aria-hidden="true" className="group-open:hidden">
                  <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
                </svg>
                <svg width="22" height="22" viewBox="0 0 20 20" aria-hidden="true" className="hidden group-open:block">
                  <path d="m5 5 10 10M15 5 5 15" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
                </svg>
              </summary>
              <div className="fixed inset-x-0 bottom-0 top-16 z-20 bg-slate-900/30" aria-hidden="true" data-menu-backdrop />
              <div className="absolute inset-x-0 top-16 z-30 max-h-[calc(100dvh-4rem)] space-y-5 overflow-y-auto border-b border-slate-200 bg-white px-4 pb-5 pt-4 shadow-lg sm:px-6">
                <OrganizationSwitcher loaderData={loaderData} idPrefix="menu" />
                <nav aria-label={t("nav.mainNavigation")}>
                  <NavItems loaderData={loaderData} />
                </nav>
                <div className="border-t border-slate-100 pt-4 sm:hidden">
                  <LanguageSwitch />
                </div>
              </div>
            </details>
            <Logo />
          </div>
          <div className="flex items-center gap-3">
            <LanguageSwitch className="hidden sm:flex" />
            <UserMenu loaderData={loaderData} />
          </div>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl gap-8 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
        <aside className="hidden w-60 shrink-0 lg:block">
          <div className="sticky top-24 space-y-6">
            <OrganizationSwitcher loaderData={loaderData} idPrefix="sidebar" />
            <nav aria-label={t("nav.mainNavigation")}>
              <NavItems loaderData={loaderData} />
            </nav>
          </div>
        </aside>
        <main id="content" tabIndex={-1} className="min-w-0 flex-1 pb-10 focus:outline-none">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
