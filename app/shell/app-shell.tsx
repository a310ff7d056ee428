// The signed-in frame around the dashboard and the admin pages: header with language switch and
// user menu, organization switcher, navigation (a sidebar on desktop, a <details> menu on phones).
import { Outlet } from "react-router";
import { looksLikeWholeSecret } from "~/api-keys/key-filters";
import { LanguageSwitch } from "~/components/language-switch";
import { Logo } from "~/components/logo";
import { useTranslation } from "~/i18n/use-translation";
import type { AppShellData } from "~/shell/app-shell.server";
import { useClosingMenus } from "~/shell/closing-menus";
import { NavItems } from "~/shell/navigation";
import { OrganizationSwitcher } from "~/shell/organization-switcher";
import { UserMenu } from "~/shell/user-menu";

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
              <div className="fixed inset-x-0 bottom-0 top-16 z-20 bg-black/40" aria-hidden="true" data-menu-backdrop />
              <div className="absolute inset-x-0 top-16 z-30 max-h-[calc(100dvh-4rem)] space-y-5 overflow-y-auto border-b border-slate-200 bg-white px-4 pb-5 pt-4 shadow-lg sm:px-6">
                <OrganizationSwitcher loaderData={loaderData} idPrefix="menu" />
                <nav aria-label={t("nav.mainNavigation")}>
                  <NavItems loaderData={loaderData} />
                </nav>
                <div className="border-t border-slate-100 pt-4 sm:hidden">
                  <LanguageSwitch omitValue={looksLikeWholeSecret} />
                </div>
              </div>
            </details>
            <Logo />
          </div>
          <div className="flex items-center gap-3">
            <LanguageSwitch className="hidden sm:flex" omitValue={looksLikeWholeSecret} />
            <UserMenu loaderData={loaderData} />
          </div>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl gap-8 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
        <aside className="hidden w-64 shrink-0 lg:block">
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
