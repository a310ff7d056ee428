// `npm run db:migrate`: applies pending migrations to DATABASE_URL.
import { migrate } from "./lib/migrate.ts";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("DATABASE_URL is not set. Set it to the PostgreSQL database to migrate, e.g. postgresql://user:pass@localhost:5432/app");
  process.exit(1);
}
try {
  const applied = await migrate(url);
  console.log(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(", ")}` : "Database is up to date.");
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
