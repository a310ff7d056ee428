// `npm start` (after the build) and `npm run dev` (`--dev`: Vite, hot reload, no build needed):
// one command from a fresh clone to a running app. Without DATABASE_URL it starts the embedded
// PostgreSQL (data in .data/), applies migrations, loads the demo data on first start, serves on
// PORT and prints the URL and demo accounts. With DATABASE_URL it uses that database and never
// loads demo data by itself.
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { ConfigError, isLoopbackHost, parseEnv, publicOrigin, shutdownTimings } from "../app/env.server.ts";
import type { EmbeddedDatabase } from "./lib/embedded-postgres.ts";
import { migrate } from "./lib/migrate.ts";
import { EMBEDDED_DATABASE, embeddedDataDir, embeddedPort } from "./lib/embedded-defaults.ts";
import { useEmbeddedSigningKey } from "./lib/audit-signing-key.ts";
import { projectRoot } from "./lib/paths.ts";
import { waitForDatabase } from "./lib/wait-for-database.ts";
import { installProcessGuards } from "../server/process-guards.ts";
import { commandLine } from "./lib/command-line.ts";
import { START_USAGE } from "./lib/start-usage.ts";
import { installShutdown } from "../server/shutdown.ts";
import { startLines } from "./lib/start-lines.ts";

const root = projectRoot; // build/ and .data/ live here, whether this runs from source or from build/node/
const startedAt = performance.now();
const dev = commandLine({ usage: START_USAGE, options: { dev: { type: "boolean" } } }).values.dev === true;
process.env.NODE_ENV ??= dev ? "development" : "production";

let embedded: EmbeddedDatabase | undefined;
/** Plain lines for the demo at a terminal; JSON log lines with DATABASE_URL (a deployment). */
const say = startLines(Boolean(process.env.DATABASE_URL));
// SIGTERM/SIGINT from the first line on: during start-up and once running (server/shutdown.ts).
// A wait for the database takes `shutdown.startupSignal`, so a signal ends it at once.
const shutdown = installShutdown({
  stopDatabase: async () => embedded?.stop(),
  say: (line) => say.info(line),
  flushLogs: () => say.flush(),
});

async function main() {
  const usingEmbedded = !process.env.DATABASE_URL;
  // Always set, so a value inherited from the shell cannot turn on the development billing
  // provider (free plan changes, unsigned provider events) in front of an external database.
  process.env.KEYLEDGER_EMBEDDED_DATABASE = usingEmbedded ? "true" : "false";
  if (usingEmbedded) {
    const port = embeddedPort(process.env);
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw new ConfigError("EMBEDDED_POSTGRES_PORT must be a port number (1-65535).");
    const dataDir = embeddedDataDir(root, process.env);
    say.info(`Starting embedded PostgreSQL on 127.0.0.1:${port} (data in ${relative(root, dataDir) || dataDir})…`);
    // Kept as soon as it runs, so an interrupted start still stops it.
    const started = await shutdown.step("the embedded database's start", async () => {
      // Loaded only here: the embedded-postgres package installs SIGINT/SIGTERM hooks that exit
      // with 143 when it loads; the shutdown takes the signals back, so it stops the database last.
      const { startEmbeddedPostgres } = await import("./lib/embedded-postgres.ts");
      shutdown.takeSignalsBack();
      embedded = await startEmbeddedPostgres({ dataDir, port, database: EMBEDDED_DATABASE });
      return embedded;
    });
    process.env.DATABASE_URL = started.url;
    // The audit digests' signing key, beside the data (never in the database): made on the first start.
    const signingKey = useEmbeddedSigningKey(process.env, dataDir);
    if (signingKey?.created)
      say.info(
        `Made the audit log's signing key: ${relative(root, signingKey.path)} (back it up apart from the database; README, Backups).`,
      );
    if (signingKey?.tightened)
      say.info(`The audit log's signing key ${relative(root, signingKey.path)} was readable by others: it is owner-only (0600) now.`);
  }
  const env = parseEnv(process.env);
  // A database that is not up yet (started alongside, restarting) is waited for, with a reason;
  // a signal ends the wait at once.
  await shutdown.step("the wait for the database", () =>
    waitForDatabase({
      url: env.DATABASE_URL,
      timeoutSeconds: env.DATABASE_WAIT_SECONDS,
      signal: shutdown.startupSignal,
      log: (line) => say.info(line),
    }),
  );
  const applied = await shutdown.step("the migrations", () => migrate(env.DATABASE_URL));
  if (applied.length) say.info(`Applied migrations: ${applied.join(", ")}`, { migrations: applied });

  if (usingEmbedded) {
    const { seedDemoData } = await import("../prisma/seed.ts");
    const { disconnectDb } = await import("../app/db.server.ts");
    const seedingStarted = performance.now();
    // The seed's connections (it runs the domain functions from source) are not the server's.
    const seeded = await shutdown.step("the demo data", () =>
      seedDemoData(env.DATABASE_URL, new Date(), { repairInterrupted: true, signal: shutdown.startupSignal }).finally(() => disconnectDb()),
    );
    if (seeded) say.info(`Loaded the demo data (${((performance.now() - seedingStarted) / 1000).toFixed(1)} s).`);
  }

  const app = dev ? await startDevServer(env.TRUST_PROXY) : await startBuiltServer(env.TRUST_PROXY);
  installProcessGuards(app.hooks.logger);
  await new Promise<void>((resolve, reject) => {
    app.server.once("error", reject);
    app.server.listen(env.PORT, env.HOST, resolve);
  });
  const worker = await app.hooks.startWorker();
  shutdown.running({ ...app, worker, ...shutdownTimings(env) });
  const url = publicOrigin(env);
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  say.info(`\nKeyLedger is ready at ${url} (started in ${seconds} s)`, { url, startSeconds: Number(seconds) });
  say.info(whereItListens(env.HOST, env.PORT, usingEmbedded), { host: env.HOST, port: env.PORT });
  const outbox = app.hooks.mailOutboxDir();
  say.info(
    outbox
      ? `Mail: SMTP_URL is not set, so messages are written as .eml files to ${relative(root, outbox) || outbox}/`
      : "Mail: sent through SMTP_URL.",
  );
  if (usingEmbedded) {
    say.info(`\nDemo accounts (password: correct-horse-battery-staple):
  owner@acme.test      owner of Acme (Enterprise plan, audit export on)
  admin@acme.test      admin of Acme
  member@acme.test     member of Acme
  owner@globex.test    owner of Globex (Team plan, no audit export)
  staff@platform.test  platform admin, member of no organization; two-factor code from the
                       demo-only TOTP secret KEYLEDGERSTAFFDEMOTOTPSECRETKEYA
  Also in the 90 days of history: diego@acme.test (admin), priya@acme.test (member),
                       hana@globex.test (admin), luis@globex.test, noor@globex.test (members).\n`);
  }
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

main().catch((error: unknown) => shutdown.startFailed(error, (e) => say.error(e instanceof ConfigError ? e.message : e)));
