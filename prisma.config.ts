import { defineConfig } from "prisma/config";

// The CLI only needs a URL for migrate/status; generate works without one.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx scripts/db-seed.ts" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/unset" },
});
