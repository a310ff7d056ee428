// The user menu in the header: who is signed in, the link to their security settings, sign out.
// A <details> element, so it opens without JavaScript (closing: app/shell/closing-menus.ts).
import { Form, href, Link } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import type { AppShellData } from "~/shell/app-shell.server";

export function UserMenu({ loaderData }: { loaderData: AppShellData }) {
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
        <span className="flex h-8 w-8 items-center justify-center rounded-full bg-brand-600 text-xs font-semibold text-on-accent">
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
            to={href("/dashboard/account/security")}
            className="block rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100 hover:text-slate-900"
          >
            {t("userMenu.security")}
          </Link>
          <Form method="post" action={href("/logout")}>
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
