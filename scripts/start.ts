// `npm start` (after the build) and `npm run dev` (`--dev`: Vite, hot reload, no build needed):
// one command from a fresh clone to a running app. Without DATABASE_URL it starts the embedded
// PostgreSQL (data in .data/), applies migrations, loads the demo data on first start, serves on
// PORT and prints the URL and demo accounts. With DATABASE_URL it uses that database and never
// loads demo data by itself.
import { existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { ConfigError, isLoopbackHost, parseEnv, publicOrigin } from "../app/env.server.ts";
import type { EmbeddedDatabase } from "./lib/embedded-postgres.ts";
import { migrate } from "./lib/migrate.ts";
import { projectRoot } from "./lib/paths.ts";
import { installProcessGuards } from "../server/process-guards.ts";

const root = projectRoot; // build/ and .data/ live here, whether this runs from source or from build/node/
const startedAt = performance.now();
const dev = process.argv.includes("--dev");
process.env.NODE_ENV ??= dev ? "development" : "production";

let embedded: EmbeddedDatabase | undefined;
let stopping = false;

async function main() {
  const usingEmbedded = !process.env.DATABASE_URL;
  // Always set, so a value inherited from the shell cannot turn on the development billing
  // provider (free plan changes, unsigned provider events) in front of an external database.
  process.env.KEYLEDGER_EMBEDDED_DATABASE = usingEmbedded ? "true" : "false";
  if (usingEmbedded) {
    const port = Number(process.env.EMBEDDED_POSTGRES_PORT ?? 54329);
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw new ConfigError("EMBEDDED_POSTGRES_PORT must be a port number (1-65535).");
    const dataDir = resolve(root, process.env.EMBEDDED_POSTGRES_DIR ?? join(".data", "postgres"));
    console.log(`Starting embedded PostgreSQL on 127.0.0.1:${port} (data in ${relative(root, dataDir) || dataDir})…`);
    // Loaded only here: the embedded-postgres package installs SIGINT/SIGTERM hooks that exit with 143
    // when it loads, which would cut short the shutdown of a server on DATABASE_URL.
    const { startEmbeddedPostgres } = await import("./lib/embedded-postgres.ts");
    embedded = await startEmbeddedPostgres({ dataDir, port, database: "keyledger" });
    process.env.DATABASE_URL = embedded.url;
  }
  const env = parseEnv(process.env);
  const applied = await migrate(env.DATABASE_URL);
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);

  if (usingEmbedded) {
    const { seedDemoData } = await import("../prisma/seed.ts");
    const { disconnectDb } = await import("../app/db.server.ts");
    const seedingStarted = performance.now();
    // The seed's connections (it runs the domain functions from source) are not the server's.
    const seeded = await seedDemoData(env.DATABASE_URL, new Date(), { repairInterrupted: true }).finally(() => disconnectDb());
    if (seeded) console.log(`Loaded the demo data (${((performance.now() - seedingStarted) / 1000).toFixed(1)} s).`);
  }

  const app = dev ? await startDevServer(env.TRUST_PROXY) : await startBuiltServer(env.TRUST_PROXY);
  installProcessGuards(app.hooks.logger);
  await new Promise<void>((resolve, reject) => {
    app.server.once("error", reject);
    app.server.listen(env.PORT, env.HOST, resolve);
  });
  const worker = await app.hooks.startWorker();
  const url = publicOrigin(env);
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.log(`\nKeyLedger is ready at ${url} (started in ${seconds} s)`);
  console.log(whereItListens(env.HOST, env.PORT, usingEmbedded));
  const outbox = app.hooks.mailOutboxDir();
  console.log(
    outbox
      ? `Mail: SMTP_URL is not set, so messages are written as .eml files to ${relative(root, outbox) || outbox}/`
      : "Mail: sent through SMTP_URL.",
  );
  if (usingEmbedded) {
    console.log(`\nDemo accounts (password: correct-horse-battery-staple):
  owner@acme.test      owner of Acme (Enterprise plan, audit export on)
  admin@acme.test      admin of Acme
  member@acme.test     member of Acme
  owner@globex.test    owner of Globex (Team plan, no audit export)
  staff@platform.test  platform admin, member of no organization; two-factor code from the
                       demo-only TOTP secret KEYLEDGERSTAFFDEMOTOTPSECRETKEYA
  Also in the 90 days of history: diego@acme.test (admin), priya@acme.test (member),
                       hana@globex.test (admin), luis@globex.test, noor@globex.test (members).\n`);
  }

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal} received, shutting down…`);
    await worker.stop().catch((error) => console.error(error));
    await app.close().catch((error) => console.error(error));
    await embedded?.stop().catch((error) => console.error(error));
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

/** Where the server listens, and on the demo database what that means (docs/decisions/0033-demo-data-and-safe-start.md). */
function whereItListens(host: string, port: number, demo: boolean): string {
  const address = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  if (isLoopbackHost(host)) {
    return demo
      ? `Listening on ${address}: this machine only. To open it to your network, start with HOST=0.0.0.0,\n` +
          "but only on a network you trust: the demo accounts' passwords and two-factor secret below are public."
      : `Listening on ${address}: this machine only (HOST=0.0.0.0 opens it to your network).`;
  }
  return demo
    ? `Listening on ${address} (HOST), reachable from your network: anyone who reaches it can sign in\n` +
        "with the public demo accounts below."
    : `Listening on ${address}.`;
}

async function startBuiltServer(trustProxy: boolean) {
  const buildDir = join(root, "build");
  if (!existsSync(join(buildDir, "server", "index.js"))) {
    throw new ConfigError("No build found. Run `npm run build` first (npm start does it for you).");
  }
  // Imported only now: React must load after NODE_ENV is settled (it picks its build at import).
  const { createAppServer } = await import("../server/app-server.ts");
  return createAppServer({ buildDir, trustProxy });
}

async function startDevServer(trustProxy: boolean) {
  const { createDevServer } = await import("../server/dev-server.ts");
  return createDevServer({ trustProxy });
}

main().catch(async (error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  await embedded?.stop().catch(() => {});
  process.exit(1);
});
