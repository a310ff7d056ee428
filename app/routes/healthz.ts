// Liveness and readiness in one: 200 when the database answers, 503 when it does not (a load
// balancer then routes around this instance; nothing is logged as an application error).
import { databaseReachable } from "~/lib/health.server";

export async function loader() {
  const headers = { "Cache-Control": "no-store" };
  if (await databaseReachable()) return Response.json({ ok: true }, { headers });
  return Response.json({ ok: false, database: "unreachable" }, { status: 503, headers });
}
