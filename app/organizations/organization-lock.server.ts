// Every change to an organization's members, invitations, settings or logos starts by locking
// the organization's row, so such changes run one at a time per organization and each re-reads
// what it checks under the lock. An organization deleted since the caller's access check is a
// 404 here, not a database error further on.
import { lockOrganizationRow, type Tx } from "~/db.server";
import { DomainError } from "~/lib/domain-error";

export async function lockOrganization(tx: Tx, organizationId: string): Promise<void> {
  if (!(await lockOrganizationRow(tx, organizationId))) throw new DomainError("NOT_FOUND", "organizationNotFound");
}
