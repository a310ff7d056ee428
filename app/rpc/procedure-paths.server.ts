// Every procedure's path under /rpc (`apiKey/authenticate`, `support/auditLog/list`), read from
// the router itself: the request metrics name a procedure only from this fixed list, never from
// what a caller put in the URL (app/edge/route-family.server.ts).
import { isProcedure } from "@orpc/server";
import { router } from "./router.server";

export function procedurePaths(): string[] {
  const paths: string[] = [];
  const walk = (node: unknown, path: string[]) => {
    if (isProcedure(node)) paths.push(path.join("/"));
    else if (node && typeof node === "object") for (const [name, child] of Object.entries(node)) walk(child, [...path, name]);
  };
  walk(router, []);
  return paths;
}
