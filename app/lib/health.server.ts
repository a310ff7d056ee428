// Whether this instance can serve: the database answers a trivial query.
import { pool } from "~/db.server";

export async function databaseReachable(): Promise<boolean> {
  try {
    await pool().query("SELECT 1");
    return true;
  } catch {
    return false;
  }
}
