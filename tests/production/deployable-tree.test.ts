// The deployable tree (docs/decisions/0035-runtime-and-production-build.md): package.json,
// package-lock.json, scripts/*.mjs and build/, copied to an empty directory, installed with
// `npm ci --omit=dev` (no TypeScript, no tsx, no prisma CLI), then the operator commands and the
// production start run there as an operator runs them: migrations, the demo seed, an admin grant
// for an unknown address, `node build/node/start.js` answering, and SIGTERM ending it with exit 0.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { dropDatabase, withDatabase } from "../setup/database.ts";
import { hasBuild, READY_PATH } from "../built-app.ts";

const root = join(import.meta.dirname, "..", "..");
/** What goes into an image or onto a server besides node_modules (the Dockerfile copies the same):
 * the manifests, the plain-JavaScript scripts npm calls (postinstall, the command launcher), the build. */
const DEPLOYABLE = [
  "package.json",
  "package-lock.json",
  ...readdirSync(join(root, "scripts"))
    .filter((name) => name.endsWith(".mjs"))
    .map((name) => join("scripts", name)),
  "build",
];

const tree = mkdtempSync(join(tmpdir(), "keyledger-deployable-"));
const adminUrl = inject("databaseAdminUrl");
const database = `keyledger_deployable_${process.pid}`;
const databaseUrl = withDatabase(adminUrl, database);
const run = promisify(execFile);

/** `npm run <script>` in the deployed tree against its database; never throws, returns the outcome. */
async function npmRun(script: string, args: string[] = []) {
  const { DATABASE_URL: _theTestsOwn, ...inherited } = process.env;
  try {
    const { stdout, stderr } = await run("npm", ["run", "--silent", script, ...(args.length ? ["--", ...args] : [])], {
      cwd: tree,
      env: { ...inherited, DATABASE_URL: databaseUrl, NODE_ENV: "production" },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

beforeAll(async () => {
  if (!hasBuild()) throw new Error("No build: run `npm run build` first (`npm test` does).");
  for (const entry of DEPLOYABLE) cpSync(join(root, entry), join(tree, entry), { recursive: true });
  await run("npm", ["ci", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: tree, env: process.env });
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`).finally(() => admin.end());
}, 300_000);

afterAll(async () => {
  await dropDatabase(adminUrl, database).catch(() => {});
  rmSync(tree, { recursive: true, force: true });
});

describe("the deployable tree after npm ci --omit=dev", () => {
  it("holds only the runtime dependencies and the scripts npm needs", () => {
    // (npm still installs the prisma CLI and TypeScript: optional peers of @prisma/client; nothing loads them.)
    for (const devOnly of ["tsx", "vite", "vitest", "esbuild", "@react-router/dev", "playwright"]) {
      expect(existsSync(join(tree, "node_modules", devOnly)), devOnly).toBe(false);
    }
    expect(readdirSync(join(tree, "scripts")).every((name) => name.endsWith(".mjs"))).toBe(true);
    expect(existsSync(join(tree, "app"))).toBe(false);
  });

  it("migrates an empty database, loads the demo data once, and refuses an unknown admin with exit 1", async () => {
    const migrated = await npmRun("db:migrate");
    expect(migrated.output).toMatch(/Applied \d+ migration\(s\)/);
    expect(migrated.code).toBe(0);
    expect((await npmRun("db:migrate")).output).toContain("Database is up to date.");

    const seeded = await npmRun("db:seed");
    expect(seeded.output).toMatch(/Loaded the demo data in \d+\.\d s\./);
    expect(seeded.code).toBe(0);

    const unknown = await npmRun("admin:grant", ["nobody@example.test"]);
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain("No account with the e-mail address nobody@example.test");
    const granted = await npmRun("admin:grant", ["owner@acme.test"]);
    expect(granted.output).toContain("owner@acme.test is now a platform admin.");
  }, 180_000);

  it("starts with node build/node/start.js, serves pages, and stops on SIGTERM with exit 0", async () => {
    const port = await freePort();
    let output = "";
    const { DATABASE_URL: _theTestsOwn, ...inherited } = process.env;
    const server: ChildProcess = spawn(process.execPath, ["build/node/start.js"], {
      cwd: tree,
      env: { ...inherited, DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "", APP_ORIGIN: "", SMTP_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    const origin = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`The server exited during start-up:\n${output}`);
      const status = await fetch(`${origin}${READY_PATH}`).then(
        (response) => response.status,
        () => 0,
      );
      // The banner follows the worker's start, and with it the signal handlers (a SIGTERM during
      // start-up is the drain work's subject, not this test's).
      if (status === 200 && output.includes("KeyLedger is ready at")) break;
      if (Date.now() > deadline) throw new Error(`Not ready within 60 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    const login = await fetch(`${origin}/login`);
    expect(login.status).toBe(200);
    const html = await login.text();
    expect(html).toContain("<html");
    const asset = html.match(/\/assets\/[\w.-]+\.js/)?.[0];
    expect(asset).toBeDefined();
    expect((await fetch(`${origin}${asset}`)).status).toBe(200);

    server.kill("SIGTERM");
    expect(await exited, output).toBe(0);
    expect(output).toContain("SIGTERM received, shutting down");
    expect(output).not.toContain("error handlers"); // graphile-worker's complaint about the shared pool
    expect(output).not.toMatch(/"level":"(error|fatal)"/);
  }, 90_000);
});
