// The gate of the audit log's downloads, the export and its digests (docs/contract.md, section 3a),
// in one place so both refuse alike. The checks run in the order the product rules give, so a
// request failing two gets the first one's answer: no session 401, unknown organization 404, not a
// member 403, not the active organization 403, missing permission 403, plan without export 403,
// two-factor required but not enabled 403, cross-site 403; then the download's own checks (its
// input 400, billing 409, the rate limits 429). Nothing is recorded for a refusal. A program gets a
// refusal as one JSON shape, `{code, message}`, translated; a browser that opened the link as a
// page (Accept offers text/html) gets the same status and headers with a page in the app shell
// that says why and links back to the filtered log.
//
// How (docs/decisions/0032-audit-filters-and-export-page.md): a resource route cannot render, and a
// loader's Response is read whole by React Router, so the answer is given by the route's
// middleware: the streamed file and the JSON refusals are returned from it before any loader runs;
// only a refusal for a browser goes on to the loader, which throws it for the ErrorBoundary.
import { createContext, data, href, type LoaderFunctionArgs, type MiddlewareFunction } from "react-router";
import { authorizeAuditExport, type AuditExporter } from "~/access/organization-access.server";
import { auditLogFiltersOfExport, filtersToSearchParams } from "~/audit/audit-query";
import type { ExportRefusal } from "~/audit/ui/export-refusal";
import { isFullyAuthenticated } from "~/auth/session.server";
import { translatorFor } from "~/i18n/i18next.server";
import { DomainError, domainErrorMessage } from "~/lib/domain-error";
import { asDomainError } from "~/lib/known-errors.server";
import { noteRequest } from "~/lib/logger.server";
import { methodNotAllowed } from "~/lib/method-not-allowed";
import { acceptsHtml } from "~/web/accepts-html";
import { requestLogContext } from "~/web/context.server";
import { applicationOrigin, isCrossSiteRequest } from "~/web/cross-site.server";
import { getAuth } from "~/web/guards.server";
import { jsonErrorOf, jsonErrorResponse } from "~/web/http-errors.server";

/** The download itself, for a caller who passed the gate: its own checks throw DomainErrors. */
export type AuditDownload = (request: Request, access: AuditExporter) => Promise<Response>;

/** The refusal a browser's page shows, handed from the middleware to the loader. */
const refusalContext = createContext<DomainError | null>(null);

type DownloadArgs = Parameters<MiddlewareFunction<Response>>[0];

/** The download's answer, or what the checks refused (a DomainError; anything else is a fault). */
async function answerOrRefusal({ request, context, params }: DownloadArgs, download: AuditDownload): Promise<Response | DomainError> {
  try {
    const auth = getAuth(context);
    if (!auth || !isFullyAuthenticated(auth)) throw new DomainError("UNAUTHORIZED", "unauthenticated");
    const organizationId = params.organizationId ?? "";
    noteRequest(context.get(requestLogContext), { organizationId: organizationId.slice(0, 64) });
    const access = await authorizeAuditExport(auth, organizationId);
    if (isCrossSiteRequest(request.headers, applicationOrigin(request.url))) throw new DomainError("FORBIDDEN", "crossSite");
    return await download(request, access);
  } catch (thrown) {
    const refusal = asDomainError(thrown, context.get(requestLogContext));
    if (refusal) return refusal;
    throw thrown;
  }
}

/** The route's middleware: only GET; the download, a JSON refusal, or the refusal page. */
export function auditDownloadMiddleware(download: AuditDownload): MiddlewareFunction<Response>[] {
  return [
    async (args, next) => {
      // HEAD would run the whole download (an export records itself) only to drop the file.
      if (args.request.method !== "GET") return jsonErrorResponse(args.context, methodNotAllowed(["GET"]));
      const answer = await answerOrRefusal(args, download);
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
}

/** The route's loader: runs only for a refusal a browser is shown, and throws it for the ErrorBoundary. */
export function auditDownloadRefusalLoader({ request, context }: LoaderFunctionArgs): never {
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
