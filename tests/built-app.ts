// The built app as `npm run serve` runs it (`node build/node/start.js`: the compiled scripts/start.ts over
// build/, in production mode, no tsx) in a
// child process: the production tests start it against their own database
// (tests/production/production-server.ts), the browser tests against a fresh embedded one
// (tests/e2e/start-server.ts). What they share is here; each adds its database and its output.
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");

/** Where an orchestrator asks whether an instance may take traffic: what the deployable-tree test and
 * the cold-start benchmark wait for. */
export const READY_PATH = "/readyz";

/** The compiled start (scripts/build-node.mjs); what `npm run serve`, the Dockerfile and the systemd unit run. */
export const COMPILED_START = join(root, "build", "node", "start.js");

/** True once `npm run build` has made the server bundle and the compiled start. */
export function hasBuild(): boolean {
  return existsSync(join(root, "build", "server", "index.js")) && existsSync(COMPILED_START);
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
  return spawn(process.execPath, [COMPILED_START], {
    cwd: root,
    env: { ...env, NODE_ENV: "production", SMTP_URL: "", MAIL_OUTBOX_DIR: options.outboxDir },
    stdio: options.stdio,
    detached: options.detached ?? false,
  });
}
