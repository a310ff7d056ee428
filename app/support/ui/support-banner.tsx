// The reason in force, on every page that shows an organization to support: the admin sees what
// they stated (and so what the records will say) while they look.
import { href, Link, useLocation } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { LocalTime } from "~/components/local-time";

export interface SupportBannerGrant {
  reason: string;
  ticket: string | null;
  openedAt: string;
}

export function SupportBanner({ organization, grant }: { organization: { id: string; name: string }; grant: SupportBannerGrant }) {
  const { t } = useTranslation("admin");
  // From the audit log, changing the reason comes back to the same page and filters.
  const location = useLocation();
  const back = location.pathname.endsWith("/audit-log") ? `?redirectTo=${encodeURIComponent(location.pathname + location.search)}` : "";
  return (
    <section
      aria-label={t("banner.label")}
      data-testid="support-banner"
      className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-950 ring-1 ring-amber-300"
    >
      <p className="font-semibold">{t("banner.text", { organization: organization.name })}</p>
      <dl className="mt-1 flex flex-wrap gap-x-6 gap-y-1">
        <div className="flex min-w-0 gap-1.5">
          <dt className="font-medium">{t("banner.reason")}:</dt>
          <dd className="min-w-0 break-words">{grant.reason}</dd>
        </div>
        {grant.ticket ? (
          <div className="flex gap-1.5">
            <dt className="font-medium">{t("banner.ticket")}:</dt>
            <dd className="break-all">{grant.ticket}</dd>
          </div>
        ) : null}
        <div className="flex gap-1.5">
          <dt className="font-medium">{t("banner.since")}:</dt>
          <dd>
            <LocalTime iso={grant.openedAt} />
          </dd>
        </div>
      </dl>
      <Link
        to={`${href("/admin/organizations/:organizationId/access", { organizationId: organization.id })}${back}`}
        className="mt-2 inline-block font-medium text-amber-900 underline underline-offset-2 hover:text-amber-700"
      >
        {t("banner.change")}
      </Link>
    </section>
  );
}
