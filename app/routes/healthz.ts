import { pool } from "~/db.server";

export async function loader() {
  await pool().query("SELECT 1");
  return Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
}
