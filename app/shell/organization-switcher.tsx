// The organization switcher: a select that switches on change (a button without JavaScript),
// the active organization's logo beside it, and the link to create one; only that link when the
// viewer has no organization yet.
import { Form, href, Link } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { logoPath } from "~/organizations/logo-path";
import type { AppShellData } from "~/shell/app-shell.server";

/** Rendered twice (sidebar and phone menu), so its ids take a prefix. */
export function OrganizationSwitcher({ loaderData, idPrefix }: { loaderData: AppShellData; idPrefix: string }) {
  const { t } = useTranslation();
  const selectId = `${idPrefix}-org-switcher`;
  if (loaderData.organizations.length === 0) {
    return (
      <Link
        to={href("/dashboard/organizations/new")}
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
    <Form method="post" action={href("/dashboard")} className="space-y-2" aria-label={t("orgSwitcher.label")}>
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
            className="h-9 w-9 shrink-0 rounded-md bg-[#fff] object-contain ring-1 ring-slate-200"
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
        to={href("/dashboard/organizations/new")}
        className="inline-flex items-center gap-1 rounded text-xs font-medium text-brand-600 hover:text-brand-700"
      >
        <span aria-hidden="true">+</span> {t("orgSwitcher.create")}
      </Link>
    </Form>
  );
}
