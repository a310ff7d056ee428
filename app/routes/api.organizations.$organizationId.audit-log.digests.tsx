// The digests download (docs/contract.md, docs/offline-verification.md): the signed digests that
// cover an export's date range, as a JSON manifest, for scripts/verify-audit-export.mjs. Behind
// the export's own gate (app/web/audit-download.server.ts): the same refusals in the same order.
import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/api.organizations.$organizationId.audit-log.digests";
import type { loader as frameLoader } from "./audit-export-frame";
import { downloadDigests } from "~/audit-integrity/digest-manifest.server";
import { parseAuditExportQuery } from "~/audit/audit-query";
import { ExportRefusalPage } from "~/audit/ui/export-refusal";
import { attachmentDisposition } from "~/lib/content-disposition";
import { rateLimitHeaders } from "~/lib/rate-limit-headers";
import { auditDownloadMiddleware, auditDownloadRefusalLoader } from "~/web/audit-download.server";

export const middleware = auditDownloadMiddleware(async (request, access) => {
  const file = await downloadDigests(access, parseAuditExportQuery(new URL(request.url).search));
  return new Response(file.body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": attachmentDisposition(file.fileName),
      "Cache-Control": "no-store",
      ...rateLimitHeaders(file.rateLimits),
    },
  });
});

export const loader = auditDownloadRefusalLoader;

/** Never shown: every answer of this route is the manifest, a JSON refusal, or the refusal page. */
export default function AuditDigests() {
  return null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const shell = useRouteLoaderData<typeof frameLoader>("routes/audit-export-frame")?.shell;
  const viewer = shell ? { canViewAudit: shell.canViewAudit, canViewBilling: shell.canViewBilling } : null;
  return <ExportRefusalPage error={error} viewer={viewer} download="digests" />;
}
