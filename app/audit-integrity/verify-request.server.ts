// A verification asked for by a person (auditLog.verify, the integrity page): owners and admins
// (audit:view, checked by the caller's access), within the verification budgets, and one at a time
// per organization across every app instance: a verification reads the whole log, and a second
// one at once would only double the load for the same answer (decision 0062).
import type { OrganizationAccess } from "~/access/organization-access.server";
import { pool } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import { consumeEach } from "~/lib/rate-limit.server";
import type { Verdict } from "./verdict";
import type { VerifyRange } from "./verify-range";
import { verifyAuditLog } from "./verify.server";

/** The advisory lock's first key: "verification of an organization's log" (the second: the organization). */
const VERIFY_LOCK_CLASS = 340_062;

/** How long a caller refused because a verification is running is told to wait. */
export const RUNNING_RETRY_SECONDS = 30;

/** Verifies the organization's log for a member allowed to view it. */
export async function verifyAuditLogFor(access: OrganizationAccess<"audit:view">, range: VerifyRange): Promise<Verdict> {
  const organizationId = access.organization.id;
  await consumeEach([
    ["audit.verify.user", access.user.id],
    ["audit.verify.organization", organizationId],
  ]);
  // A session lock on a connection of its own, held while the verification reads on others; it
  // ends with the connection should the process die.
  const client = await pool().connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked", [
      VERIFY_LOCK_CLASS,
      organizationId,
    ]);
    if (!rows[0]?.locked) throw new DomainError("TOO_MANY_REQUESTS", "auditVerify.running", { retryAfterSeconds: RUNNING_RETRY_SECONDS });
    try {
      return await verifyAuditLog(organizationId, range);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1, hashtext($2))", [VERIFY_LOCK_CLASS, organizationId]);
    }
  } finally {
    client.release();
  }
}
