// The support console's own records, for platform admins: every support access opened and every
// audit log view, actor list and detail read, with who, when, why and the ticket. Filtered by
// admin, organization and UTC days through the URL (a GET form, works without JavaScript).
import { Form, Link, useLocation } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { titleMeta } from "~/components/page-title";
import type { Route } from "./+types/admin.support-records";
import { ErrorPanel } from "~/components/error-page";
import { Button, ButtonLink, Card, PageHeader, controlClass } from "~/components/ui";
import { LocalTime } from "~/components/local-time";
import { getInstance } from "~/i18n/i18next.server";
import { requirePlatformAdmin } from "~/web/guards.server";
import { parseSearchParams } from "~/web/search-params.server";
import { orHttpError } from "~/web/http-errors.server";
import { listSupportAdmins, listSupportRecords, type SupportRecord } from "~/support/support.server";
import { supportLogFiltersSchema } from "~/support/schemas";
import { SupportSections } from "~/support/ui/support-sections";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export async function loader(args: Route.LoaderArgs) {
  const admin = await requirePlatformAdmin(args, { fresh: true });
  const filters = parseSearchParams(args, supportLogFiltersSchema);
  const [page, admins] = await Promise.all([orHttpError(args.context, () => listSupportRecords(admin, filters)), listSupportAdmins(admin)]);
  const { cursor, ...shown } = filters;
  return { title: getInstance(args.context).t("admin:records.title"), filters: shown, paged: cursor !== undefined, admins, ...page };
}

function What({ record }: { record: SupportRecord }) {
  const { t } = useTranslation("admin");
  const organizationId = record.organization.id;
  if (record.action === "audit_log.listed" && organizationId) {
    return (
      <Link
        to={`/admin/organizations/${organizationId}/audit-log${record.subject ? `?${record.subject}` : ""}`}
        className="break-words text-brand-600 hover:text-brand-700"
      >
        {record.subject ?? t("records.allEvents")}
      </Link>
    );
  }
  if (record.action === "audit_event.viewed" && organizationId && record.subject) {
    return (
      <Link
        to={`/admin/organizations/${organizationId}/audit-log?event=${record.subject}`}
        className="font-mono text-xs break-all text-brand-600 hover:text-brand-700"
      >
        {record.subject}
      </Link>
    );
  }
  return <span className="text-slate-400">—</span>;
}

function Admin({ record }: { record: SupportRecord }) {
  const { t } = useTranslation("admin");
  return record.admin.name ?? <span className="text-slate-500">{`${t("records.deletedAdmin")} · ${record.admin.id}`}</span>;
}

function Organization({ record }: { record: SupportRecord }) {
  const { t } = useTranslation("admin");
  const { id, name } = record.organization;
  if (id && name)
    return (
      <Link to={`/admin/organizations/${id}`} className="text-brand-600 hover:text-brand-700">
        {name}
      </Link>
    );
  return <span className="break-all text-slate-500">{`${t("records.deletedOrganization")} · ${id ?? "—"}`}</span>;
}

export default function SupportRecords({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const location = useLocation();
  const { filters, records, nextCursor, paged, admins } = loaderData;
  const filterParams = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === "string"));
  const pageHref = (cursor?: string) => {
    const params = new URLSearchParams(filterParams);
    if (cursor) params.set("cursor", cursor);
    return params.size ? `?${params.toString()}` : location.pathname;
  };
  return (
    <div className="space-y-6">
      <SupportSections />
      <PageHeader title={t("records.title")} description={t("records.description")} />
      <Card title={t("records.filters")}>
        <Form method="get" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-[repeat(4,minmax(0,1fr))_auto] xl:items-end">
          <label className="block min-w-0 space-y-1.5 text-sm font-medium text-slate-800">
            <span>{t("records.admin")}</span>
            <select name="adminId" defaultValue={filters.adminId ?? ""} className={controlClass}>
              <option value="">{t("records.anyAdmin")}</option>
              {admins.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </label>
          <label className="block min-w-0 space-y-1.5 text-sm font-medium text-slate-800">
            <span>{t("records.organization")}</span>
            <input name="organizationId" defaultValue={filters.organizationId ?? ""} maxLength={36} className={controlClass} />
          </label>
          <label className="block min-w-0 space-y-1.5 text-sm font-medium text-slate-800">
            <span>{t("records.from")}</span>
            <input type="date" name="from" defaultValue={filters.from ?? ""} className={controlClass} />
          </label>
          <label className="block min-w-0 space-y-1.5 text-sm font-medium text-slate-800">
            <span>{t("records.to")}</span>
            <input type="date" name="to" defaultValue={filters.to ?? ""} className={controlClass} />
          </label>
          <div className="flex flex-wrap gap-2 sm:col-span-2 xl:col-span-1">
            <Button type="submit" className="whitespace-nowrap">
              {t("records.apply")}
            </Button>
            {filterParams.size ? (
              <ButtonLink to={location.pathname} variant="secondary" className="whitespace-nowrap">
                {t("records.reset")}
              </ButtonLink>
            ) : null}
          </div>
        </Form>
      </Card>
      <Card>
        {records.length === 0 ? (
          <p className="text-sm text-slate-500">{t("records.empty")}</p>
        ) : (
          <>
            {/* Phones: one card per record; wider screens: a table. */}
            <ul className="-my-3 divide-y divide-slate-100 md:hidden" aria-label={t("records.title")}>
              {records.map((record) => (
                <li key={record.id} className="space-y-1 py-3 text-sm">
                  <p className="font-medium text-slate-900">{t(`records.actions.${record.action}`, { defaultValue: record.action })}</p>
                  <p className="text-slate-600">
                    <LocalTime iso={record.createdAt} /> · <Admin record={record} /> · <Organization record={record} />
                  </p>
                  <p className="break-words">
                    <span className="font-medium">{t("records.reason")}:</span> {record.reason}
                    {record.ticket ? ` · ${t("records.ticket")}: ${record.ticket}` : ""}
                  </p>
                  {record.subject ? (
                    <p className="break-words">
                      <What record={record} />
                    </p>
                  ) : null}
                </li>
              ))}
            </ul>
            <table className="hidden min-w-full divide-y divide-slate-200 text-left text-sm md:table">
              <caption className="sr-only">{t("records.title")}</caption>
              <thead>
                <tr className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
                  <th scope="col" className="px-3 py-2">
                    {t("records.time")}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    {t("records.admin")}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    {t("records.organizationColumn")}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    {t("records.action")}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    {t("records.what")}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    {t("records.reason")}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    {t("records.ticket")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 align-top">
                {records.map((record) => (
                  <tr key={record.id}>
                    <td className="px-3 py-2 text-slate-600">
                      <LocalTime iso={record.createdAt} />
                    </td>
                    <td className="px-3 py-2">
                      <Admin record={record} />
                    </td>
                    <td className="px-3 py-2">
                      <Organization record={record} />
                    </td>
                    <td className="px-3 py-2">{t(`records.actions.${record.action}`, { defaultValue: record.action })}</td>
                    <td className="max-w-56 px-3 py-2 break-words">
                      <What record={record} />
                    </td>
                    <td className="max-w-72 px-3 py-2 break-words">{record.reason}</td>
                    <td className="px-3 py-2 whitespace-nowrap">{record.ticket ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
        {nextCursor || paged ? (
          <nav className="mt-4 flex flex-wrap gap-4 text-sm font-medium" aria-label={t("records.title")}>
            {paged ? (
              <Link to={pageHref()} className="text-brand-600 hover:text-brand-700">
                {t("records.first")}
              </Link>
            ) : null}
            {nextCursor ? (
              <Link to={pageHref(nextCursor)} className="text-brand-600 hover:text-brand-700">
                {t("records.more")} →
              </Link>
            ) : null}
          </nav>
        ) : null}
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}
