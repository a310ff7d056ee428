// /rpc for the dev server and tests. In production the node server answers /rpc before React
// Router sees it (docs/decisions/0003-rpc-fast-path.md); both call the same handler and router.
import type { Route } from "./+types/rpc.$";
import { clientAddressContext } from "~/context.server";
import { handleRpcFetchRequest } from "~/rpc/handler.server";

function handle({ request, context }: Route.ActionArgs) {
  return handleRpcFetchRequest(request, context.get(clientAddressContext));
}

export const loader = handle;
export const action = handle;
