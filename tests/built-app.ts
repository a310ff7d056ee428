// The built app as `npm run serve` runs it (scripts/start.ts over build/, in production mode) in a
// child process: the production tests start it against their own database
// (tests/production/production-server.ts), the browser tests against a fresh embedded one
// (tests/e2e/start-server.ts). What they share is here; each adds its database and its output.
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");

/** True once `npm run build` has made the server bundle. */
export function hasBuild(): boolean {
  return existsSync(join(root, "build", "server", "index.js"));
}

/** Starts the built app with `env`; mail is written as .eml files to `outboxDir`, never sent by SMTP. */
export function spawnBuiltApp(
  env: NodeJS.ProcessEnv,
  options: {
    outboxDir: string;
    stdio: StdioOptions;
    /** A process group of its own, as a terminal's foreground job. */ detached?: boolean;
  },
): ChildProcess {
  return spawn(process.execPath, [join(root, "node_modules", "tsx", "dist", "cli.mjs"), join(root, "scripts", "start.ts")], {
    cwd: root,
    env: { ...env, NODE_ENV: "production", SMTP_URL: "", MAIL_OUTBOX_DIR: options.outboxDir },
    stdio: options.stdio,
    detached: options.detached ?? false,
  });
}
