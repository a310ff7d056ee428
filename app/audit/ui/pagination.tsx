// The audit page's paging: first and previous page, the page sizes, the next page. Cursors, not
// page numbers (app/audit/cursor.server.ts), so there is no "page 7 of 20" to show.
import { Link } from "react-router";
import { ButtonLink } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import { AUDIT_PAGE_SIZES, type AuditPageSize } from "~/audit/audit-query";
import type { AuditViewLinks } from "~/audit/ui/view-links";

export function Pagination({
  prevCursor,
  nextCursor,
  perPage,
  links,
}: {
  prevCursor: string | null;
  nextCursor: string | null;
  perPage: AuditPageSize;
  links: Pick<AuditViewLinks, "pageHref" | "perPageHref">;
}) {
  const { t } = useTranslation("audit");
  return (
    <nav className="flex flex-wrap items-center justify-between gap-3" aria-label={t("page.pagination")}>
      <span className="flex flex-wrap gap-2">
        {prevCursor ? (
          <>
            <ButtonLink to={links.pageHref(null)} variant="secondary">
              {t("page.firstPage")}
            </ButtonLink>
            <ButtonLink to={links.pageHref(prevCursor)} variant="secondary" data-testid="audit-prev-page">
              ← {t("page.previousPage")}
            </ButtonLink>
          </>
        ) : null}
      </span>
      <span className="flex items-center gap-1 text-sm text-slate-600" data-testid="audit-per-page">
        <span id="audit-per-page-label" className="mr-1">
          {t("page.perPage")}
        </span>
        {AUDIT_PAGE_SIZES.map((size) =>
          size === perPage ? (
            <span key={size} aria-current="true" className="rounded-md bg-slate-100 px-2 py-1 font-semibold text-slate-900">
              {size}
            </span>
          ) : (
            <Link
              key={size}
              to={links.perPageHref(size)}
              aria-describedby="audit-per-page-label"
              preventScrollReset
              className="rounded-md px-2 py-1 font-medium text-brand-600 hover:bg-slate-50 hover:text-brand-700"
            >
              {size}
            </Link>
          ),
        )}
      </span>
      {nextCursor ? (
        <ButtonLink to={links.pageHref(nextCursor)} variant="secondary" data-testid="audit-next-page">
          {t("page.nextPage")} →
        </ButtonLink>
      ) : null}
    </nav>
  );
}
