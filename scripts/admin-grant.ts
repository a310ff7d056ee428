// `npm run admin:grant -- EMAIL`: makes the existing account EMAIL a platform admin in DATABASE_URL.
// The account signs up first.
import { grantPlatformAdmin } from "./lib/grant-platform-admin.ts";

const url = process.env.DATABASE_URL;
const email = process.argv[2];
if (!url || !email) {
  console.error("Usage: DATABASE_URL=postgresql://… npm run admin:grant -- someone@example.com");
  process.exit(1);
}
try {
  const result = await grantPlatformAdmin(url, email);
  const messages = {
    granted: `${email} is now a platform admin.`,
    already: `${email} already is a platform admin.`,
    unknown: `No account with the e-mail address ${email}. Sign up first, then run this again.`,
  };
  console.log(messages[result]);
  process.exit(result === "unknown" ? 1 : 0);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
