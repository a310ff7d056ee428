// `npm run admin:set-plan -- ORGANIZATION PLAN`: puts an organization in DATABASE_URL on a plan of
// the catalog, without a payment provider (app/billing/plan-override.server.ts): how a
// self-hosted deployment turns on audit export. Exit 0 with one line; 1 with a message and
// nothing changed for an unknown organization or plan, bad arguments or no DATABASE_URL.
import { commandLine, requireDatabaseUrl } from "./lib/command-line.ts";
import { PLAN_IDS, planName } from "../app/plans/catalog.ts";
import { setPlanFromCommandLine } from "./lib/set-plan.ts";

const USAGE = `Usage: DATABASE_URL=postgresql://… npm run admin:set-plan -- ORGANIZATION PLAN

Puts the organization on the plan and its billing state to active, recorded in its audit log as
billing.plan_changed by the system actor "operator". No payment provider is asked.

  ORGANIZATION   the organization's id or slug
  PLAN           ${PLAN_IDS.map((id) => `${id} (${planName(id)})`).join(", ")}
  -h, --help     show this help`;

const { positionals } = commandLine({ usage: USAGE, positionals: { min: 2, max: 2 } });
const url = requireDatabaseUrl();
const result = await setPlanFromCommandLine(url, positionals[0]!, positionals[1]!);
(result.ok ? console.log : console.error)(result.message);
process.exit(result.ok ? 0 : 1);
