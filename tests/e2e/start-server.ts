// Starts the BUILT app for the browser tests (playwright.config.ts `webServer`), against a fresh
// embedded PostgreSQL in .data/e2e-postgres on its own port, so the suite never touches the data
// of `npm start` (.data/postgres, port 54329). scripts/start.ts migrates and loads the demo data.
// Run `npm run build` first (`npm run test:e2e` does).
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { hasBuild, spawnBuiltApp } from "../built-app.ts";
import { SCANNING_PUBLIC_KEYS } from "./scanning-key.ts";
import { E2E_AUDIT_SIGNING_KEY_PEM } from "./audit-signing-key.ts";

const root = join(import.meta.dirname, "..", "..");
const dataDir = process.env.E2E_DATA_DIR ?? join(root, ".data", "e2e-postgres");
/** Without SMTP_URL the app writes each mail as an .eml file here; tests/e2e/mail.ts reads them. */
const outboxDir = process.env.E2E_OUTBOX_DIR ?? join(root, ".data", "e2e-outbox");
const port = process.env.E2E_PORT ?? "3210";
const pgPort = process.env.E2E_POSTGRES_PORT ?? "54339";

if (!hasBuild()) {
  console.error("No build found: run `npm run build` before `playwright test` (`npm run test:e2e` does both).");
  process.exit(1);
}

/** A server left over from an interrupted run of this script would hold the port: stop it first. */
async function stopLeftoverPostgres() {
  const pidFile = join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return; // not running
  }
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
  }
}

await stopLeftoverPostgres();
rmSync(dataDir, { recursive: true, force: true });
rmSync(outboxDir, { recursive: true, force: true });

const { DATABASE_URL: _ignored, ...inherited } = process.env;
const child = spawnBuiltApp(
  // Audit streams send to receivers the tests run on this machine (http, loopback); secret scanning
  // reports are signed with the tests' own key (scanning-key.ts).
  {
    ...inherited,
    PORT: port,
    EMBEDDED_POSTGRES_PORT: pgPort,
    EMBEDDED_POSTGRES_DIR: dataDir,
    STREAMING_ALLOW_PRIVATE_NETWORKS: "true",
    SECRET_SCANNING_PUBLIC_KEYS: SCANNING_PUBLIC_KEYS,
    // The audit log's digests are signed with the tests' own key (audit-signing-key.ts).
    AUDIT_SIGNING_KEY: E2E_AUDIT_SIGNING_KEY_PEM,
  },
  { outboxDir, stdio: "inherit" },
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
