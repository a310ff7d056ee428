// The audit log export (docs/contract.md): GET with `format` (csv, the default, or json for
// NDJSON) and the audit page's filters; a streamed download. The gate (who may, in which order,
// how a refusal is answered to a program and to a browser) is app/web/audit-download.server.ts,
// shared with the digests download.
import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/api.organizations.$organizationId.audit-log.export";
import type { loader as frameLoader } from "./audit-export-frame";
import { parseAuditExportQuery } from "~/audit/audit-query";
import { exportAuditLog } from "~/audit/export/export-audit-log.server";
import { ExportRefusalPage } from "~/audit/ui/export-refusal";
import { attachmentDisposition } from "~/lib/content-disposition";
import { rateLimitHeaders } from "~/lib/rate-limit-headers";
import { auditDownloadMiddleware, auditDownloadRefusalLoader } from "~/web/audit-download.server";

export const middleware = auditDownloadMiddleware(async (request, access) => {
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

export const loader = auditDownloadRefusalLoader;

/** Never shown: every answer of this route is the file, a JSON refusal, or the refusal page. */
export default function AuditExport() {
  return null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const shell = useRouteLoaderData<typeof frameLoader>("routes/audit-export-frame")?.shell;
  const viewer = shell ? { canViewAudit: shell.canViewAudit, canViewBilling: shell.canViewBilling } : null;
  return <ExportRefusalPage error={error} viewer={viewer} />;
}
