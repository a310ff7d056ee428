// The audit page's export card: the download links (carrying the page's filters), or why there
// are none. Plain links: the answer is a file, so the page stays; a refusal shows its message.
import { href, Link } from "react-router";
import { Card } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import { auditExportHref, filtersToSearchParams, type AuditFilters } from "~/audit/audit-query";

/**
 * What the page offers for export (the tenant page only: support access is read-only). `blocker`
 * is the first reason the viewer cannot export now, the same one the export route would answer.
 */
export type AuditExportOffer =
  | { blocker: null }
  | { blocker: "plan"; planName: string; exportPlans: string[]; billingLink?: boolean }
  | { blocker: "billing"; billingLink?: boolean }
  | { blocker: "permission" | "twoFactor" };

/** The digests download for the same filters (its manifest covers the export's date range). */
function auditDigestsHref(organizationId: string, filters: AuditFilters): string {
  const params = filtersToSearchParams(filters);
  params.sort();
  const path = href("/api/organizations/:organizationId/audit-log/digests", { organizationId: encodeURIComponent(organizationId) });
  return params.size ? `${path}?${params.toString()}` : path;
}

const linkClass = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50";

export function ExportCard({ offer, organizationId, filters }: { offer: AuditExportOffer; organizationId: string; filters: AuditFilters }) {
  const { t } = useTranslation("audit");
  if (offer.blocker !== null) {
    return (
      <Card title={t("page.export.title")}>
        <p className="text-sm text-slate-600" data-testid="audit-export-unavailable">
          {offer.blocker === "plan"
            ? t("page.export.unavailable.plan", { plan: offer.planName, plans: offer.exportPlans.join(", ") })
            : t(`page.export.unavailable.${offer.blocker}`)}{" "}
          {offer.blocker === "twoFactor" ? (
            <Link to={href("/dashboard/account/security")} className="font-medium text-brand-600 hover:text-brand-700">
              {t("page.export.securityLink")}
            </Link>
          ) : null}
          {(offer.blocker === "billing" || offer.blocker === "plan") && offer.billingLink ? (
            // The billing page (app/billing/ui/): linked by its route, not imported (billing sits above audit).
            <Link
              to={href("/dashboard/organization-settings/billing")}
              className="font-medium text-brand-600 hover:text-brand-700"
              data-testid="audit-export-billing-link"
            >
              {t("page.export.billingLink")}
            </Link>
          ) : null}
        </p>
      </Card>
    );
  }
  return (
    <Card title={t("page.export.title")} description={t("page.export.description")}>
      <p className="flex flex-wrap gap-2" data-testid="audit-export">
        <a href={auditExportHref(organizationId, filters, "csv")} className={linkClass}>
          {t("page.export.csv")}
        </a>
        <a href={auditExportHref(organizationId, filters, "json")} className={linkClass}>
          {t("page.export.ndjson")}
        </a>
        <a href={auditDigestsHref(organizationId, filters)} className={linkClass} data-testid="audit-digests-link">
          {t("page.export.offline.download")}
        </a>
      </p>
      <p className="mt-2 text-sm text-slate-600">{t("page.export.offline.hint")}</p>
    </Card>
  );
}
