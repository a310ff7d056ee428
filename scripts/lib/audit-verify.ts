// What `npm run audit:verify` does once its arguments are read: finds the organization (by id or
// slug, as admin:set-plan does), verifies its log and words the verdict.
import { verifyAuditLog } from "../../app/audit-integrity/verify.server.ts";
import { findOrganization } from "../../app/billing/plan-override.server.ts";
import { disconnectDb, prisma } from "../../app/db.server.ts";
import { databaseUnavailableReason } from "../../app/lib/database-unavailable.server.ts";
import { verdictLines } from "./audit-verify-lines.ts";

/**
 * What to say when the database is not there (the app's own reading of pg's and Prisma's errors,
 * app/lib/database-unavailable.server.ts): never reached, or gone in the middle of the run (pg's bare
 * "Connection terminated unexpectedly" told an operator nothing about what to do). Null: a real fault.
 */
function databaseTrouble(error: unknown): string | null {
  const reason = databaseUnavailableReason(error);
  if (reason === null) return null;
  if (reason === "unreachable") return "The database is not reachable: is it running (`npm start` for the embedded one)?";
  if (reason === "connectionLost")
    return "The database connection was lost during the verification: run it again once the database is back.";
  return `The database is not available (${reason}): run the verification again shortly.`;
}

export async function verifyOrganizationFromCommandLine(
  reference: string,
  range: { from?: string; to?: string },
): Promise<{ ok: boolean; lines: string[] }> {
  try {
    const found = await prisma.$transaction((tx) => findOrganization(tx, reference));
    if (!found) return { ok: false, lines: [`No organization with the id or slug "${reference}".`] };
    const organization = await prisma.organization.findUniqueOrThrow({ where: { id: found.id }, select: { name: true, slug: true } });
    const verdict = await verifyAuditLog(found.id, range);
    return verdictLines(`${organization.name} (${organization.slug})`, verdict);
  } catch (error) {
    const trouble = databaseTrouble(error);
    if (trouble) return { ok: false, lines: [trouble] };
    return { ok: false, lines: [(error as Error).message] };
  } finally {
    await disconnectDb();
  }
}
