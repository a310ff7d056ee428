// `npm run admin:create-user -- EMAIL [--name NAME] [--platform-admin]`: creates a verified account
// in DATABASE_URL and prints a one-time link to choose its password (scripts/lib/create-user.ts).
// Exit 0 with the link; 1 for a taken or invalid address, bad arguments or no database.
import { ConfigError, parseEnv, publicOrigin } from "../app/env.server.ts";
import { commandLine } from "./lib/command-line.ts";
import { createUserWithPasswordLink, FIRST_PASSWORD_LINK_LIFETIME } from "./lib/create-user.ts";

const USAGE = `Usage: DATABASE_URL=postgresql://… npm run admin:create-user -- EMAIL [--name NAME] [--platform-admin]

Creates a verified account for EMAIL without a password and prints a one-time link (valid for
${FIRST_PASSWORD_LINK_LIFETIME / 3_600_000} hours) where its owner chooses one. Links use APP_ORIGIN (else http://localhost:PORT).

  --name NAME         the account's name (default: the part of EMAIL before the @)
  --platform-admin    make the account a platform admin (it must enrol two-factor before using the support console)
  -h, --help          show this help`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const args = commandLine({
  usage: USAGE,
  options: { name: { type: "string" }, "platform-admin": { type: "boolean" } },
  positionals: { min: 1, max: 1 },
});

let origin: string;
try {
  origin = publicOrigin(parseEnv(process.env));
} catch (error) {
  fail(error instanceof ConfigError ? error.message : String(error));
}

try {
  const result = await createUserWithPasswordLink(process.env.DATABASE_URL!, origin, {
    email: args.positionals[0]!,
    name: args.values.name,
    platformAdmin: args.values["platform-admin"] ?? false,
  });
  if (result.kind === "invalid") fail(result.reason);
  if (result.kind === "taken") fail(`An account with the e-mail address ${result.email} already exists. Nothing was changed.`);
  const admin = args.values["platform-admin"] ? " (platform admin)" : "";
  console.log(`Created the account ${result.email}${admin}. Its address counts as verified.`);
  console.log(`Open this link to choose its password (works once, until ${result.expiresAt.toISOString()}):`);
  console.log(result.link);
  process.exit(0);
} catch (error) {
  fail((error as Error).message);
}
