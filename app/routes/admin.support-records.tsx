// The support console's own records, for platform admins: every support access opened and every
// audit log view, actor list and detail read, with who, when, why and the ticket. Filtered by
// admin, organization and UTC days through the URL (a GET form, works without JavaScript).
import { data, Form, useLocation } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { titleMeta } from "~/components/page-title";
import type { Route } from "./+types/admin.support-records";
import { ErrorPanel } from "~/components/error-page";
import { Alert, Button, ButtonLink, Card, PageHeader, controlClass } from "~/components/ui";
import { translatorFor } from "~/i18n/i18next.server";
import { requirePlatformAdmin } from "~/web/guards.server";
import { orBadRequestMessage, readSearchParams, searchParamsOf } from "~/web/search-params.server";
import { listSupportAdmins, listSupportRecords } from "~/support/support.server";
import { SupportRecordsList } from "~/support/ui/support-records-list";
import { KeysetPager } from "~/components/keyset-pager";
import { supportLogFiltersSchema } from "~/support/schemas";
import { SupportSections } from "~/support/ui/support-sections";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export async function loader(args: Route.LoaderArgs) {
  const admin = await requirePlatformAdmin(args, { fresh: true });
  const title = translatorFor(args.context)("admin:records.title");
  // What was typed stays in the form, so a bad value can be corrected where it is.
  const { adminId = "", organizationId = "", from = "", to = "", cursor } = searchParamsOf(args.request);
  const typed = { adminId, organizationId, from, to };
  const parsed = readSearchParams(args, supportLogFiltersSchema);
  const page = parsed.ok ? await orBadRequestMessage(args.context, () => listSupportRecords(admin, parsed.value)) : parsed;
  const admins = await listSupportAdmins(admin, parsed.ok ? parsed.value.adminId : undefined);
  if (!page.ok)
    return data({ title, filters: typed, paged: false, admins, records: [], nextCursor: null, error: page.message }, { status: 400 });
  return { title, filters: typed, paged: cursor !== undefined, admins, ...page.value, error: null };
}

export default function SupportRecords({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const location = useLocation();
  const { filters, records, nextCursor, paged, admins, error } = loaderData;
  const filterParams = new URLSearchParams(Object.entries(filters).filter(([, value]) => value !== ""));
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
        {error ? (
          <div className="mb-4">
            <Alert tone="error">{error}</Alert>
          </div>
        ) : null}
        <Form
          method="get"
          className="grid gap-4 sm:grid-cols-2 xl:grid-cols-[minmax(0,1fr)_minmax(0,1.5fr)_minmax(10rem,1fr)_minmax(10rem,1fr)_auto] xl:items-end"
        >
          <label className="block min-w-0 space-y-1.5 text-sm font-medium text-slate-800">
            <span>{t("records.admin")}</span>
            <select name="adminId" defaultValue={filters.adminId} className={controlClass}>
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
            <input name="organizationId" defaultValue={filters.organizationId} maxLength={36} className={controlClass} />
          </label>
          <label className="block min-w-0 space-y-1.5 text-sm font-medium text-slate-800">
            <span>{t("records.from")}</span>
            <input type="date" name="from" defaultValue={filters.from} className={controlClass} />
          </label>
          <label className="block min-w-0 space-y-1.5 text-sm font-medium text-slate-800">
            <span>{t("records.to")}</span>
            <input type="date" name="to" defaultValue={filters.to} className={controlClass} />
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
        {error ? null : records.length === 0 ? (
          <p className="text-sm text-slate-500">{t("records.empty")}</p>
        ) : (
          <SupportRecordsList records={records} />
        )}
        <KeysetPager
          label={t("pager")}
          first={paged ? { href: pageHref(), label: t("records.first") } : null}
          next={nextCursor ? { href: pageHref(nextCursor), label: t("records.more") } : null}
        />
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}
