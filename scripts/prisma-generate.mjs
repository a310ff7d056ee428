// Runs `prisma generate` on any machine. Prisma's CLI insists on locating its native schema
// engine even though generate never executes it; where the engine was not downloaded (offline
// machines, or because we do not approve @prisma/engines' install script) we point it at an
// existing file. Where PRISMA_SCHEMA_ENGINE_BINARY is already set, it is left alone.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
const cli = require.resolve("prisma/build/index.js");
const result = spawnSync(process.execPath, [cli, "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
