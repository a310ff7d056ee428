// The organization's row lock, the one way every change to an organization starts: its keys,
// members, invitations, settings, logos, billing, an account's deletion. Changes queue here, one
// at a time per organization, so what each re-reads under the lock (counts, roles, previous
// values) stays true until it commits. NO KEY UPDATE: inserts that merely reference the
// organization (audit events, memberships) take KEY SHARE and are not blocked.
import type { Tx } from "~/db.server";
import { DomainError } from "~/lib/domain-error";

async function lockRow(tx: Tx, organizationId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM organizations WHERE id = ${organizationId}::uuid FOR NO KEY UPDATE`;
  return rows.length > 0;
}

/** Locks the organization for the rest of the transaction. One deleted since the caller's access
 * check is a 404 here, not a database error further on. */
export async function lockOrganization(tx: Tx, organizationId: string): Promise<void> {
  if (!(await lockRow(tx, organizationId))) throw new DomainError("NOT_FOUND", "organizationNotFound");
}

/**
 * Locks several organizations, one after the other in the order given: callers pass them in id
 * order, as every change that holds more than one does, so two of them wait for each other instead
 * of deadlocking. Ones deleted meanwhile are skipped: the caller re-reads what is left under the locks.
 */
export async function lockExistingOrganizations(tx: Tx, organizationIds: readonly string[]): Promise<void> {
  for (const id of organizationIds) await lockRow(tx, id);
}
