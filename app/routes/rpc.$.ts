// /rpc for the dev server and tests. In production the node server answers /rpc before React
// Router sees it (docs/decisions/0003-rpc-fast-path.md); both call the same handler and router.
import type { Route } from "./+types/rpc.$";
import { clientAddressContext } from "~/context.server";
import { handleRpcFetchRequest } from "~/rpc/handler.server";

async function handle({ request, context }: Route.ActionArgs) {
  const response = await handleRpcFetchRequest(request, context.get(clientAddressContext));
  return response ?? Response.json({ json: { code: "NOT_FOUND", status: 404, message: "Not found" } }, { status: 404 });
}

export const loader = handle;
export const action = handle;
