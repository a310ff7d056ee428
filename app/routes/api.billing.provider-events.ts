// The payment provider's events (docs/contract.md; docs/decisions/0029-billing.md): POST a JSON
// body, signed in the KeyLedger-Signature header when BILLING_WEBHOOK_SECRET is set (the
// development provider on the embedded database may send it unsigned otherwise). Never
// cookie-authenticated: the signature is the only credential. Answers 200 with what happened
// (`applied`, `unchanged`, or `already_processed` for a repeated event id) and the billing state;
// 401 for a missing, wrong or stale signature (or none possible), 400 for a body that is not one
// event, 404 for an unknown organization, 409 for an event that does not apply; nothing is
// written for any of them. Bodies are capped by the request edge like every page write.
import type { Route } from "./+types/api.billing.provider-events";
import { receiveProviderEvent } from "~/billing/billing.server";
import { methodNotAllowed } from "~/lib/method-not-allowed";
import { translatorFor } from "~/i18n/i18next.server";
import { jsonErrorResponse, orJsonError } from "~/web/http-errors.server";

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return jsonErrorResponse(context, methodNotAllowed(["POST"]));
  const contentType = request.headers.get("content-type");
  if (contentType === null || !/^application\/json\s*(;|$)/i.test(contentType)) {
    return jsonErrorResponse(context, { status: 415, code: "UNSUPPORTED_MEDIA_TYPE", messageKey: "unsupportedMediaType" });
  }
  return orJsonError(context, async () => {
    const { outcome, billing } = await receiveProviderEvent(request.headers, await request.text());
    const message = translatorFor(context)(`billing:events.${outcome}`);
    return Response.json({ outcome, message, billing }, { headers: { "Cache-Control": "no-store" } });
  });
}

/** GET and HEAD: the endpoint only takes deliveries. */
export function loader({ context }: Route.LoaderArgs) {
  return jsonErrorResponse(context, methodNotAllowed(["POST"]));
}
