// Runs `prisma generate` on any machine. Prisma's CLI insists on locating its native schema
// engine even though generate never executes it; where the engine was not downloaded (offline
// machines, or because we do not approve @prisma/engines' install script) we point it at an
// existing file. Where PRISMA_SCHEMA_ENGINE_BINARY is already set, it is left alone.
//
// After `npm ci --omit=dev` (a deployed tree) the CLI, a development dependency, is absent: there is
// nothing to generate then, the build has the client compiled in (build/server, build/node).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
let cli;
try {
  cli = require.resolve("prisma/build/index.js");
} catch {
  console.log("prisma generate skipped: the prisma CLI is not installed (npm ci --omit=dev); the build carries the generated client.");
  process.exit(0);
}
const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
const result = spawnSync(process.execPath, [cli, "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
