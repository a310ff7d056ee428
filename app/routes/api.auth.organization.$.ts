// The raw organization routes of the auth layer are disabled (spec: "Every raw organization route
// under /api/auth/organization/ is disabled and answers 404, reads included"). The typed
// organization procedures at /rpc are the only way in.
import type { Route } from "./+types/api.auth.organization.$";
import { getInstance } from "~/i18n/i18next.server";

function notFound(context: Route.LoaderArgs["context"]) {
  return Response.json({ code: "NOT_FOUND", message: getInstance(context).t("errors:notFound") }, { status: 404 });
}

export const loader = ({ context }: Route.LoaderArgs) => notFound(context);
export const action = ({ context }: Route.ActionArgs) => notFound(context);
