// The audit log export (docs/contract.md): GET with `format` (csv, the default, or json for
// NDJSON) and the audit page's filters; a streamed download. The checks run in the order the
// product rules give, so a request failing two gets the first one's answer: no session 401,
// unknown organization 404, not a member 403, not the active organization 403, missing
// permission 403, plan without export 403, two-factor required but not enabled 403, cross-site
// 403, then the input (400), billing blocked 409 and the rate limits 429. Every refusal is one
// JSON shape, `{code, message}`, translated; nothing is recorded for it.
import type { Route } from "./+types/api.organizations.$organizationId.audit-log.export";
import { authorizeAuditExport } from "~/access/organization-access.server";
import { parseAuditExportQuery } from "~/audit/audit-query";
import { exportAuditLog } from "~/audit/export/export-audit-log.server";
import { isFullyAuthenticated } from "~/auth/session.server";
import { attachmentDisposition } from "~/lib/content-disposition";
import { DomainError } from "~/lib/domain-error";
import { noteRequest } from "~/lib/logger.server";
import { rateLimitHeaders } from "~/lib/rate-limit-headers";
import { requestLogContext } from "~/web/context.server";
import { applicationOrigin, isCrossSiteRequest } from "~/web/cross-site.server";
import { getAuth } from "~/web/guards.server";
import { methodNotAllowed } from "~/lib/method-not-allowed";
import { jsonErrorResponse, orJsonError } from "~/web/http-errors.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  // HEAD would run the whole export (and record it) only to drop the file.
  if (request.method !== "GET") return jsonErrorResponse(context, methodNotAllowed(["GET"]));
  return orJsonError(context, async () => {
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
  });
}

export function action({ context }: Route.ActionArgs) {
  return jsonErrorResponse(context, methodNotAllowed(["GET"]));
}
