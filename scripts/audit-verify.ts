// `npm run audit:verify -- ORGANIZATION [--from YYYY-MM-DD] [--to YYYY-MM-DD]`: checks the
// organization's audit log against its signed digests (docs/decisions/0062-audit-verification.md).
// Exit 0 with "intact" and the counts; exit 1 with one line per finding and a summary, or with a
// message for an unknown organization, bad dates, a log not sealed or no database.
import { commandLine } from "./lib/command-line.ts";
import { chooseDatabase } from "./lib/verify-database.ts";
import { parseCalendarDay } from "../app/lib/dates.ts";

const USAGE = `Usage: npm run audit:verify -- ORGANIZATION [--from YYYY-MM-DD] [--to YYYY-MM-DD]

Checks the organization's audit log against its signed digests and names every altered, inserted
or deleted event and every missing or bad digest. Exit 0 when the log is intact, 1 otherwise.
Without DATABASE_URL, uses the embedded database of \`npm start\` and its signing key.

  ORGANIZATION   the organization's id or slug
  --from DAY     the first day (UTC) whose digests to check
  --to DAY       the last day (UTC) whose digests to check
  -h, --help     show this help`;

const { positionals, values } = commandLine({
  usage: USAGE,
  positionals: { min: 1, max: 1 },
  options: { from: { type: "string" }, to: { type: "string" } },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

for (const [name, value] of [
  ["--from", values.from],
  ["--to", values.to],
] as const) {
  if (value === undefined) continue;
  const day = parseCalendarDay(value);
  if (!day.ok) fail(`${name} must be a day YYYY-MM-DD between 2000 and 9999, not "${value}".`);
}
if (values.from && values.to && values.from > values.to) fail("--from must not be after --to.");

const database = chooseDatabase(process.env);
if (database.kind === "none") fail(database.message);
if (database.kind === "embedded") console.log(database.note);

// Loaded after the database is chosen: the app's configuration is read from the environment once.
const { verifyOrganizationFromCommandLine } = await import("./lib/audit-verify.ts");
const result = await verifyOrganizationFromCommandLine(positionals[0]!, { from: values.from, to: values.to });
for (const line of result.lines) (result.ok ? console.log : console.error)(line);
process.exit(result.ok ? 0 : 1);
