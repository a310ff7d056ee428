// `npm run db:seed`: loads the demo data (prisma/seed.ts) into DATABASE_URL; refuses (exit 1) when it
// is already there. An entry of its own, like every operator command, so `npm run build` compiles it.
import { seedDemoData } from "../prisma/seed.ts";
import { commandLine, requireDatabaseUrl } from "./lib/command-line.ts";

commandLine({
  usage: `Usage: DATABASE_URL=postgresql://… npm run db:seed

Loads the demo data (docs/contract.md) into DATABASE_URL, which must be migrated; refuses (exit 1)
when it is already there. The role in DATABASE_URL must own the tables.

  -h, --help    show this help`,
});
const url = requireDatabaseUrl();
// Loaded only now: the database module reads DATABASE_URL when it loads.
const { disconnectDb } = await import("../app/db.server.ts");
const startedAt = performance.now();
const seeded = await seedDemoData(url).finally(() => disconnectDb());
if (!seeded) {
  console.error("The demo data is already loaded; refusing to load it twice.");
  process.exit(1);
}
console.log(`Loaded the demo data in ${((performance.now() - startedAt) / 1000).toFixed(1)} s.`);
