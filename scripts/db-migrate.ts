// `npm run db:migrate`: applies pending migrations to DATABASE_URL.
import { commandLine, requireDatabaseUrl } from "./lib/command-line.ts";
import { migrate } from "./lib/migrate.ts";

const USAGE = `Usage: DATABASE_URL=postgresql://… npm run db:migrate

Applies the pending migrations of prisma/migrations to DATABASE_URL (and the job queue's schema).
Safe to run while the app runs and from several places at once: one runs, the others wait.
A migration interrupted while building an index CONCURRENTLY is redone.

  -h, --help    show this help`;

commandLine({ usage: USAGE });
const url = requireDatabaseUrl();
try {
  const applied = await migrate(url);
  console.log(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(", ")}` : "Database is up to date.");
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
