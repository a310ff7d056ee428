// `npm run admin:grant -- EMAIL`: makes the existing account EMAIL a platform admin in DATABASE_URL.
// The account signs up first.
import { commandLine, requireDatabaseUrl } from "./lib/command-line.ts";
import { grantPlatformAdmin } from "./lib/grant-platform-admin.ts";

const USAGE = `Usage: DATABASE_URL=postgresql://… npm run admin:grant -- EMAIL

Makes the existing account with the e-mail address EMAIL a platform admin (the support console).
It must enrol two-factor authentication before using the console. Exit 1 for an unknown address.

  -h, --help    show this help`;

const { positionals } = commandLine({ usage: USAGE, positionals: { min: 1, max: 1 } });
const url = requireDatabaseUrl();
const email = positionals[0]!;
try {
  const result = await grantPlatformAdmin(url, email);
  const messages = {
    granted: `${email} is now a platform admin.`,
    already: `${email} already is a platform admin.`,
    unknown: `No account with the e-mail address ${email}. Sign up first, then run this again.`,
  };
  (result === "unknown" ? console.error : console.log)(messages[result]);
  process.exit(result === "unknown" ? 1 : 0);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
