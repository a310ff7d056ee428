// What `npm run audit:verify` does once its arguments are read: finds the organization (by id or
// slug, as admin:set-plan does), verifies its log and words the verdict.
import { verifyAuditLog } from "../../app/audit-integrity/verify.server.ts";
import { findOrganization } from "../../app/billing/plan-override.server.ts";
import { disconnectDb, prisma } from "../../app/db.server.ts";
import { verdictLines } from "./audit-verify-lines.ts";

/** The database did not answer: refused by pg, or Prisma's P1001 ("Can't reach database server"). */
const isUnreachable = (error: unknown) => {
  const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
  return code === "ECONNREFUSED" || code === "P1001" || cause?.code === "ECONNREFUSED";
};

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
    if (isUnreachable(error))
      return { ok: false, lines: ["The database is not reachable: is it running (`npm start` for the embedded one)?"] };
    return { ok: false, lines: [(error as Error).message] };
  } finally {
    await disconnectDb();
  }
}
