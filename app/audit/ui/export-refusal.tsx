// A refused export (or digests download), opened as a page (a browser followed the download link): the status, why (the
// same translated message a program gets as JSON; for a 429 it says how long to wait, from the
// same number as Retry-After) and the way back to the log the link came from, with its filters.
// Inside the app shell for someone signed in; on its own, with a sign-in link, for a 401.
// The routes are app/routes/api.organizations.$organizationId.audit-log.export.tsx and .digests.tsx.
import { href, isRouteErrorResponse } from "react-router";
import { ErrorPage, ErrorPanel } from "~/components/error-page";
import { Logo } from "~/components/logo";
import { buttonClass } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import { signInHref } from "~/lib/safe-redirect";

/** What the export route throws for the page: the JSON refusal's code and message, plus the way back. */
export interface ExportRefusal {
  code: string;
  /** The message's key (`errors:`), to offer the page that fixes it (billing, security). */
  reason: string;
  message: string;
  /** The audit log with the export link's filters (those the page can show). */
  auditLogHref: string;
}

/** What the app shell knows about the viewer; null when nobody is signed in. */
export interface RefusalViewer {
  canViewAudit: boolean;
  canViewBilling: boolean;
}

function isExportRefusal(value: unknown): value is ExportRefusal {
  return typeof value === "object" && value !== null && "auditLogHref" in value && "message" in value && "reason" in value;
}

const secondaryLink = "font-medium text-brand-600 hover:text-brand-700";

/** Which download was refused: the log's export or its digests (both refuse alike). */
export type RefusedDownload = "export" | "digests";

function RefusalContent({
  status,
  refusal,
  viewer,
  download,
}: {
  status: number;
  refusal: ExportRefusal;
  viewer: RefusalViewer | null;
  download: RefusedDownload;
}) {
  const { t } = useTranslation("audit");
  const title = t(download === "digests" ? "exportRefusal.digestsTitle" : "exportRefusal.title");
  const fixedBy =
    viewer?.canViewBilling && (refusal.reason === "auditExport.planLacksExport" || refusal.reason === "auditExport.billingBlocked")
      ? { to: href("/dashboard/organization-settings/billing"), label: t("page.export.billingLink") }
      : viewer && refusal.reason === "twoFactorRequiredByOrganization"
        ? { to: href("/dashboard/account/security"), label: t("page.export.securityLink") }
        : null;
  const back = !viewer
    ? { to: signInHref(refusal.auditLogHref), label: t("common:errorPage.signIn") }
    : viewer.canViewAudit
      ? { to: refusal.auditLogHref, label: t("exportRefusal.backToLog") }
      : { to: href("/dashboard"), label: t("common:errorPage.home") };
  return (
    <>
      <title>{`${title} · ${t("common:appName")}`}</title>
      <p className="text-sm font-semibold tracking-wide text-brand-600">{t("common:errorPage.statusLabel", { status })}</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      <p className="mx-auto mt-3 max-w-md text-base leading-7 text-slate-600" data-testid="export-refusal-message">
        {refusal.message}
      </p>
      <p className="mt-6 flex flex-wrap items-center justify-center gap-x-5 gap-y-3">
        {/* Plain links: the page was a document request, and the log is another page. */}
        <a href={back.to} className={buttonClass("primary")} data-testid="export-refusal-back">
          {back.label}
        </a>
        {fixedBy ? (
          <a href={fixedBy.to} className={secondaryLink}>
            {fixedBy.label}
          </a>
        ) : null}
      </p>
    </>
  );
}

export function ExportRefusalPage({
  error,
  viewer,
  download = "export",
}: {
  error: unknown;
  viewer: RefusalViewer | null;
  download?: RefusedDownload;
}) {
  if (!isRouteErrorResponse(error) || !isExportRefusal(error.data))
    return viewer ? <ErrorPanel error={error} /> : <ErrorPage error={error} />;
  const content = <RefusalContent status={error.status} refusal={error.data} viewer={viewer} download={download} />;
  if (viewer) {
    return (
      <div className="rounded-xl bg-white px-6 py-10 text-center shadow-sm ring-1 ring-slate-200" role="alert" data-testid="export-refusal">
        {content}
      </div>
    );
  }
  return (
    <div className="flex min-h-full flex-col bg-gradient-to-b from-brand-50 to-slate-50">
      <header className="mx-auto flex w-full max-w-7xl items-center px-4 py-4 sm:px-6 lg:px-8">
        <Logo />
      </header>
      <main className="flex flex-1 items-center justify-center px-6 pb-24 pt-12">
        <div className="max-w-md text-center" data-testid="export-refusal">
          {content}
        </div>
      </main>
    </div>
  );
}
