// Liveness and readiness in one: 200 when the database answers, 503 when it does not (a load
// balancer then routes around this instance; nothing is logged as an application error).
import { pool } from "~/db.server";

export async function loader() {
  const headers = { "Cache-Control": "no-store" };
  try {
    await pool().query("SELECT 1");
    return Response.json({ ok: true }, { headers });
  } catch {
    return Response.json({ ok: false, database: "unreachable" }, { status: 503, headers });
  }
}
