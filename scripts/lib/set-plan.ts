// What `npm run admin:set-plan` says and does, apart from reading its arguments: the one domain
// function the support console uses too, and its outcomes in one line each.
import { disconnectDb } from "../../app/db.server.ts";
import { OPERATOR_ACTOR, setOrganizationPlan } from "../../app/billing/plan-override.server.ts";
import { DomainError } from "../../app/lib/domain-error.ts";
import { PLAN_IDS, planName } from "../../app/plans/catalog.ts";

export async function setPlanFromCommandLine(
  databaseUrl: string,
  organization: string,
  plan: string,
): Promise<{ ok: boolean; message: string }> {
  if (process.env.DATABASE_URL !== databaseUrl) throw new Error("setPlanFromCommandLine: databaseUrl must be this process's DATABASE_URL.");
  try {
    const result = await setOrganizationPlan(organization, plan, { actor: OPERATOR_ACTOR });
    const who = `${result.organization.name} (${result.organization.slug})`;
    if (result.outcome === "unchanged") {
      const state = result.state === "active" ? "" : ` (billing state: ${result.state})`;
      return { ok: true, message: `${who} is already on ${planName(result.to)}${state}. Nothing was changed.` };
    }
    return { ok: true, message: `${who} is now on ${planName(result.to)} (was ${planName(result.from)}).` };
  } catch (error) {
    if (error instanceof DomainError && error.messageKey === "billing.unknownPlan") {
      return { ok: false, message: `Unknown plan "${plan}". Plans: ${PLAN_IDS.join(", ")}. Nothing was changed.` };
    }
    if (error instanceof DomainError && error.messageKey === "organizationNotFound") {
      return { ok: false, message: `No organization with the id or slug "${organization}". Nothing was changed.` };
    }
    return { ok: false, message: (error as Error).message };
  } finally {
    await disconnectDb();
  }
}
