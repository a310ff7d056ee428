// The audit page's error: for a URL the log cannot show (a 400: a malformed filter, cursor or
// event id; a 404: an event that is not in this organization's log) a link back to the log, with
// the filters kept when only the event or the page position was wrong. Other errors (no access)
// have no way back here: the same log would refuse again.
import { Link, isRouteErrorResponse, useLocation } from "react-router";
import { ErrorPanel } from "~/components/error-page";
import { buttonClass } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";

/** Where "Back to the audit log" leads from this failed URL, or null when there is no way back. */
export function auditLogWayBack(error: unknown, pathname: string, search: string): string | null {
  if (!isRouteErrorResponse(error) || (error.status !== 400 && error.status !== 404)) return null;
  if (error.status === 400) return pathname;
  const params = new URLSearchParams(search);
  params.delete("event");
  params.delete("cursor");
  return params.size ? `${pathname}?${params.toString()}` : pathname;
}

export function AuditErrorPanel({ error }: { error: unknown }) {
  const { t } = useTranslation("audit");
  const location = useLocation();
  const back = auditLogWayBack(error, location.pathname, location.search);
  return (
    <ErrorPanel error={error}>
      {back ? (
        <Link to={back} className={buttonClass("secondary", "mt-6")}>
          {t("exportRefusal.backToLog")}
        </Link>
      ) : null}
    </ErrorPanel>
  );
}
