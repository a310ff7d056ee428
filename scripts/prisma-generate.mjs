// Runs `prisma generate` on any machine. Prisma's CLI insists on locating its native schema
// engine even though generate never executes it; where the engine was not downloaded (offline
// machines, or because we do not approve @prisma/engines' install script) we point it at an
// existing file. Where PRISMA_SCHEMA_ENGINE_BINARY is already set, it is left alone.
//
// A deployed tree (`npm ci --omit=dev` over package.json, package-lock.json, scripts/*.mjs and build/)
// has no schema to generate from, and may lack the CLI (a development dependency; npm still installs
// it as an optional peer of @prisma/client): nothing to do there, the build has the client compiled
// in (build/server, build/node).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);
let cli;
try {
  cli = require.resolve("prisma/build/index.js");
} catch {
  cli = null;
}
if (!cli || !existsSync(join(import.meta.dirname, "..", "prisma", "schema.prisma"))) {
  console.log("prisma generate skipped: no Prisma schema or CLI here (a deployed tree); the build carries the generated client.");
  process.exit(0);
}
const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
const result = spawnSync(process.execPath, [cli, "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
