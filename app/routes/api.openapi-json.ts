// GET /api/openapi.json: the OpenAPI 3.1 document of the integrator call, POST /rpc/apiKey/authenticate
// (app/api-keys/openapi/, decision 0056). Public: no session is read. Its servers entry is this
// instance's public origin (APP_ORIGIN, else the origin the request addressed).
import type { Route } from "./+types/api.openapi-json";
import { openApiDocumentResponse } from "~/api-keys/openapi/document-response.server";
import { methodNotAllowed } from "~/lib/method-not-allowed";
import { applicationOrigin } from "~/web/cross-site.server";
import { jsonErrorResponse } from "~/web/http-errors.server";

/** GET and HEAD (React Router answers HEAD with the loader, without the body). */
export function loader({ request }: Route.LoaderArgs) {
  return openApiDocumentResponse(request, applicationOrigin(request.url));
}

/** A document to read, nothing to send. */
export function action({ context }: Route.ActionArgs) {
  return jsonErrorResponse(context, methodNotAllowed(["GET", "HEAD"]));
}
