// The audit log export (docs/contract.md): GET with `format` (csv, the default, or json for
// NDJSON) and the audit page's filters; a streamed download. The checks run in the order the
// product rules give, so a request failing two gets the first one's answer: no session 401,
// unknown organization 404, not a member 403, not the active organization 403, missing
// permission 403, plan without export 403, two-factor required but not enabled 403, cross-site
// 403, then the input (400), billing blocked 409 and the rate limits 429. Nothing is recorded for
// a refusal. A program gets a refusal as one JSON shape, `{code, message}`, translated; a browser
// that opened the link as a page (Accept offers text/html) gets the same status and headers with a
// page in the app shell that says why and links back to the filtered log.
//
// How (docs/decisions/0032-audit-filters-and-export-page.md): a resource route cannot render, and a
// loader's Response is read whole by React Router, so the answer is given by this route's
// middleware: the streamed file and the JSON refusals are returned from it before any loader runs;
// only a refusal for a browser goes on to the loader, which throws it for the ErrorBoundary.
import { createContext, data, href, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/api.organizations.$organizationId.audit-log.export";
import type { loader as frameLoader } from "./audit-export-frame";
import { authorizeAuditExport } from "~/access/organization-access.server";
import { auditLogFiltersOfExport, filtersToSearchParams, parseAuditExportQuery } from "~/audit/audit-query";
import { exportAuditLog } from "~/audit/export/export-audit-log.server";
import { ExportRefusalPage, type ExportRefusal } from "~/audit/ui/export-refusal";
import { isFullyAuthenticated } from "~/auth/session.server";
import { attachmentDisposition } from "~/lib/content-disposition";
import { DomainError, domainErrorMessage } from "~/lib/domain-error";
import { asDomainError } from "~/lib/known-errors.server";
import { noteRequest } from "~/lib/logger.server";
import { rateLimitHeaders } from "~/lib/rate-limit-headers";
import { translatorFor } from "~/i18n/i18next.server";
import { acceptsHtml } from "~/web/accepts-html";
import { requestLogContext } from "~/web/context.server";
import { applicationOrigin, isCrossSiteRequest } from "~/web/cross-site.server";
import { getAuth } from "~/web/guards.server";
import { methodNotAllowed } from "~/lib/method-not-allowed";
import { jsonErrorOf, jsonErrorResponse } from "~/web/http-errors.server";

/** The refusal a browser's page shows, handed from the middleware to the loader. */
const refusalContext = createContext<DomainError | null>(null);

/** The streamed file, or what the checks refused (a DomainError; anything else is a fault). */
async function exportOrRefusal({ request, context, params }: Route.LoaderArgs): Promise<Response | DomainError> {
  try {
    const auth = getAuth(context);
    if (!auth || !isFullyAuthenticated(auth)) throw new DomainError("UNAUTHORIZED", "unauthenticated");
    noteRequest(context.get(requestLogContext), { organizationId: params.organizationId.slice(0, 64) });
    const access = await authorizeAuditExport(auth, params.organizationId);
    if (isCrossSiteRequest(request.headers, applicationOrigin(request.url))) throw new DomainError("FORBIDDEN", "crossSite");
    const file = await exportAuditLog(access, parseAuditExportQuery(new URL(request.url).search));
    return new Response(file.body, {
      headers: {
        "Content-Type": file.contentType,
        "Content-Disposition": attachmentDisposition(file.fileName),
        "Cache-Control": "no-store",
        ...rateLimitHeaders(file.rateLimits),
      },
    });
  } catch (thrown) {
    const refusal = asDomainError(thrown, context.get(requestLogContext));
    if (refusal) return refusal;
    throw thrown;
  }
}

export const middleware: Route.MiddlewareFunction[] = [
  async (args, next) => {
    // HEAD would run the whole export (and record it) only to drop the file.
    if (args.request.method !== "GET") return jsonErrorResponse(args.context, methodNotAllowed(["GET"]));
    const answer = await exportOrRefusal(args);
    if (answer instanceof Response) return answer;
    const json = jsonErrorOf(args.context, answer);
    if (!acceptsHtml(args.request.headers)) return json;
    args.context.set(refusalContext, answer);
    const page = await next();
    // The page answers with the refusal's own status (the loader threw it) and headers.
    for (const [name, value] of json.headers) if (!/^content-/i.test(name)) page.headers.set(name, value);
    return page;
  },
];

export function loader({ request, context }: Route.LoaderArgs): never {
  const refusal = context.get(refusalContext);
  if (!refusal) throw data({ code: "NOT_FOUND", message: translatorFor(context)("errors:notFound") }, { status: 404 });
  const filters = filtersToSearchParams(auditLogFiltersOfExport(new URL(request.url).search));
  const body: ExportRefusal = {
    code: refusal.code,
    reason: refusal.messageKey,
    message: domainErrorMessage(refusal, translatorFor(context)),
    auditLogHref: `${href("/dashboard/organization-settings/audit-log")}${filters.size ? `?${filters.toString()}` : ""}`,
  };
  throw data(body, { status: refusal.status });
}

/** Never shown: every answer of this route is the file, a JSON refusal, or the refusal page. */
export default function AuditExport() {
  return null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const shell = useRouteLoaderData<typeof frameLoader>("routes/audit-export-frame")?.shell;
  const viewer = shell ? { canViewAudit: shell.canViewAudit, canViewBilling: shell.canViewBilling } : null;
  return <ExportRefusalPage error={error} viewer={viewer} />;
}
