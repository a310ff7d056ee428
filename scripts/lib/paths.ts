// Where the project's files are, for code that runs both from source (tsx, vitest: this file is
// scripts/lib/paths.ts) and compiled (`npm run build` bundles it into build/node/*.js). Both sit
// two directories below the project's root: a checkout, or a deployed tree of package.json,
// package-lock.json, scripts/*.mjs and build/ (docs/decisions/0035-runtime-and-production-build.md).
import { join } from "node:path";

/** True when this code runs from the compiled scripts in build/node/, false from the TypeScript source. */
export const compiled = !import.meta.url.endsWith(".ts");

/** The directory holding package.json, build/ and .data/. */
export const projectRoot = join(import.meta.dirname, "..", "..");

/** The migrations the running code was built with: the source in a checkout; the compiled scripts
 * read the copy `npm run build` puts in build/migrations (a deployed tree has no prisma/). */
export const migrationsDir = compiled ? join(projectRoot, "build", "migrations") : join(projectRoot, "prisma", "migrations");
