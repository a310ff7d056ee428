// GitHub's secret scanning partner endpoint (docs/contract.md; docs/decisions/0060-secret-scanning-reports.md):
// POST a JSON array of `{token, type, url, source}`, signed by GitHub (ECDSA P-256 over the raw
// body, the key named in Github-Public-Key-Identifier). Never cookie-authenticated: the signature
// is the only credential. Answers 200 with `[{token_raw, token_type, label}]`, one per token, or
// `{code, message}`: 404 when SECRET_SCANNING_PUBLIC_KEYS is unset, 401, 400, 413, 503.
import type { Route } from "./+types/api.secret-scanning.github";
import { receiveScanningReport } from "~/secret-scanning/receive-report.server";
import { methodNotAllowed } from "~/lib/method-not-allowed";
import { translatorFor } from "~/i18n/i18next.server";
import { jsonErrorResponse, orJsonError } from "~/web/http-errors.server";

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return jsonErrorResponse(context, methodNotAllowed(["POST"]));
  return orJsonError(context, async () => {
    // The exact bytes: the signature is over them, not over a decoded and re-encoded text.
    const outcome = await receiveScanningReport(request.headers, new Uint8Array(await request.arrayBuffer()));
    if (outcome.ok) return Response.json(outcome.answers, { headers: { "Cache-Control": "no-store" } });
    const t = translatorFor(context);
    return Response.json(
      { code: outcome.code, message: t(`errors:${outcome.messageKey}`, outcome.params) },
      { status: outcome.status, headers: { "Cache-Control": "no-store" } },
    );
  });
}

/** GET and HEAD: the endpoint only takes reports. */
export function loader({ context }: Route.LoaderArgs) {
  return jsonErrorResponse(context, methodNotAllowed(["POST"]));
}
