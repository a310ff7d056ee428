// GET /.well-known/audit-log-keys.json: the public keys the audit log's digests are signed with
// (app/audit-integrity/published-keys.server.ts; docs/audit-digests.md). Public: no session is read.
import type { Route } from "./+types/well-known.audit-log-keys-json";
import { publishedKeysResponse } from "~/audit-integrity/published-keys.server";
import { methodNotAllowed } from "~/lib/method-not-allowed";
import { jsonErrorResponse } from "~/web/http-errors.server";

/** GET and HEAD (React Router answers HEAD with the loader, without the body). */
export function loader({ request }: Route.LoaderArgs) {
  return publishedKeysResponse(request);
}

/** Keys to read, nothing to send. */
export function action({ context }: Route.ActionArgs) {
  return jsonErrorResponse(context, methodNotAllowed(["GET", "HEAD"]));
}
