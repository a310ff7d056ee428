// The digests download (docs/contract.md, docs/offline-verification.md): the signed digests that
// cover an export's date range, as a JSON manifest, for scripts/verify-audit-export.mjs. The
// export's gate in the export's order (the same refusals, translated; a browser that opened the
// link as a page gets the refusal page in the app shell), answered from this route's middleware
// as the export's route does (a loader's Response would be read whole; the manifest streams).
import { createContext, data, href, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/api.organizations.$organizationId.audit-log.digests";
import type { loader as frameLoader } from "./audit-export-frame";
import { authorizeAuditExport } from "~/access/organization-access.server";
import { downloadDigests } from "~/audit-integrity/digest-manifest.server";
import { auditLogFiltersOfExport, filtersToSearchParams, parseAuditExportQuery } from "~/audit/audit-query";
import { ExportRefusalPage, type ExportRefusal } from "~/audit/ui/export-refusal";
import { isFullyAuthenticated } from "~/auth/session.server";
import { translatorFor } from "~/i18n/i18next.server";
import { attachmentDisposition } from "~/lib/content-disposition";
import { DomainError, domainErrorMessage } from "~/lib/domain-error";
import { asDomainError } from "~/lib/known-errors.server";
import { noteRequest } from "~/lib/logger.server";
import { methodNotAllowed } from "~/lib/method-not-allowed";
import { rateLimitHeaders } from "~/lib/rate-limit-headers";
import { acceptsHtml } from "~/web/accepts-html";
import { requestLogContext } from "~/web/context.server";
import { applicationOrigin, isCrossSiteRequest } from "~/web/cross-site.server";
import { getAuth } from "~/web/guards.server";
import { jsonErrorOf, jsonErrorResponse } from "~/web/http-errors.server";

/** The refusal a browser's page shows, handed from the middleware to the loader. */
const refusalContext = createContext<DomainError | null>(null);

/** The streamed manifest, or what the checks refused (a DomainError; anything else is a fault). */
async function manifestOrRefusal({ request, context, params }: Route.LoaderArgs): Promise<Response | DomainError> {
  try {
    const auth = getAuth(context);
    if (!auth || !isFullyAuthenticated(auth)) throw new DomainError("UNAUTHORIZED", "unauthenticated");
    noteRequest(context.get(requestLogContext), { organizationId: params.organizationId.slice(0, 64) });
    const access = await authorizeAuditExport(auth, params.organizationId);
    if (isCrossSiteRequest(request.headers, applicationOrigin(request.url))) throw new DomainError("FORBIDDEN", "crossSite");
    const file = await downloadDigests(access, parseAuditExportQuery(new URL(request.url).search));
    return new Response(file.body, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
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
    if (args.request.method !== "GET") return jsonErrorResponse(args.context, methodNotAllowed(["GET"]));
    const answer = await manifestOrRefusal(args);
    if (answer instanceof Response) return answer;
    const json = jsonErrorOf(args.context, answer);
    if (!acceptsHtml(args.request.headers)) return json;
    args.context.set(refusalContext, answer);
    const page = await next();
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

/** Never shown: every answer of this route is the manifest, a JSON refusal, or the refusal page. */
export default function AuditDigests() {
  return null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const shell = useRouteLoaderData<typeof frameLoader>("routes/audit-export-frame")?.shell;
  const viewer = shell ? { canViewAudit: shell.canViewAudit, canViewBilling: shell.canViewBilling } : null;
  return <ExportRefusalPage error={error} viewer={viewer} />;
}
