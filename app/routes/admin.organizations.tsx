// Every organization, for platform admins (fresh session): searched by name, slug or id, 25 a page,
// each linking to its support page.
import { useTranslation } from "~/i18n/use-translation";
import { data, Form, href, Link } from "react-router";
import { titleMeta } from "~/components/page-title";
import type { Route } from "./+types/admin.organizations";
import { requirePlatformAdmin } from "~/web/guards.server";
import { planName } from "~/plans/catalog";
import { useFormats } from "~/components/use-formats";
import { ErrorPanel } from "~/components/error-page";
import { Alert, Button, ButtonLink, Card, PageHeader, controlClass } from "~/components/ui";
import { translatorFor } from "~/i18n/i18next.server";
import { searchOrganizations } from "~/organizations/admin.server";
import { organizationSearchSchema } from "~/support/schemas";
import { orBadRequestMessage, readSearchParams, searchParamsOf } from "~/web/search-params.server";
import { SupportSections } from "~/support/ui/support-sections";
import { KeysetPager } from "~/components/keyset-pager";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export async function loader(args: Route.LoaderArgs) {
  const admin = await requirePlatformAdmin(args, { fresh: true });
  const title = translatorFor(args.context)("admin:organizations.title");
  const typed = searchParamsOf(args.request).q ?? "";
  const query = readSearchParams(args, organizationSearchSchema);
  const found = query.ok ? await orBadRequestMessage(args.context, () => searchOrganizations(admin, query.value)) : query;
  // A bad search or page link is shown above the search box, with what was typed still in it.
  if (!found.ok) return data({ title, q: typed, paged: false, nextCursor: null, organizations: [], error: found.message }, { status: 400 });
  const { organizations, nextCursor } = found.value;
  return {
    title,
    q: query.ok ? (query.value.q ?? "") : typed,
    paged: query.ok && query.value.cursor !== undefined,
    nextCursor,
    organizations: organizations.map((o) => ({ ...o, planName: planName(o.planId) })),
    error: null,
  };
}

export default function AdminOrganizations({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const formats = useFormats();
  const { q, organizations, nextCursor, paged, error } = loaderData;
  const withQuery = (extra: Record<string, string>) => `?${new URLSearchParams({ ...(q ? { q } : {}), ...extra }).toString()}`;
  return (
    <div className="space-y-6">
      <SupportSections />
      <PageHeader title={t("organizations.title")} description={t("organizations.description")} />
      <Card>
        {error ? (
          <div className="mb-4">
            <Alert tone="error">{error}</Alert>
          </div>
        ) : null}
        <Form method="get" role="search" className="flex flex-wrap items-end gap-3">
          <div className="min-w-0 flex-1 basis-64 space-y-1.5">
            <label htmlFor="organization-search" className="block text-sm font-medium text-slate-800">
              {t("organizations.searchLabel")}
            </label>
            <input id="organization-search" name="q" type="search" defaultValue={q} maxLength={100} className={controlClass} />
          </div>
          <Button type="submit">{t("organizations.searchSubmit")}</Button>
          {q ? (
            <ButtonLink to={href("/admin/organizations")} variant="secondary">
              {t("organizations.clear")}
            </ButtonLink>
          ) : null}
        </Form>
      </Card>
      <Card>
        {error ? null : organizations.length === 0 ? (
          <p className="text-sm text-slate-500">{q ? t("organizations.noMatch", { q }) : t("organizations.empty")}</p>
        ) : (
          <ul className="-my-3 divide-y divide-slate-100" aria-label={t("organizations.title")}>
            {organizations.map((org) => (
              <li key={org.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="font-medium break-words text-slate-900">{org.name}</p>
                  <p className="text-sm break-words text-slate-500">
                    /{org.slug} · {org.planName} · {t("organizations.members")}: {org.members} · {t("organizations.created")}{" "}
                    {formats.date(org.createdAt)}
                  </p>
                </div>
                <Link
                  to={href("/admin/organizations/:organizationId", { organizationId: org.id })}
                  aria-label={`${t("organizations.open")}: ${org.name}`}
                  className="text-sm font-semibold text-brand-600 hover:text-brand-700"
                >
                  {t("organizations.open")} →
                </Link>
              </li>
            ))}
          </ul>
        )}
        <KeysetPager
          label={t("pager")}
          first={paged ? { href: withQuery({}), label: t("organizations.first") } : null}
          next={nextCursor ? { href: withQuery({ cursor: nextCursor }), label: t("organizations.more") } : null}
        />
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}
