// `npm start` with no DATABASE_URL and no HOST: the embedded demo, whose passwords and staff TOTP
// secret are public, listens on this machine only and says so; a HOST that is no address stops the
// start with a message naming HOST (docs/decisions/0033-demo-data-and-safe-start.md).
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { hasBuild, spawnBuiltApp } from "../built-app.ts";

const dataDir = mkdtempSync(join(tmpdir(), "keyledger-safe-start-"));
let child: ChildProcess;
let output = "";
let port = 0;

/** Everything but DATABASE_URL and HOST from this process (the test runner sets both). */
function startEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _url, HOST: _host, ...rest } = process.env;
  // LOG_LEVEL as `npm start` has it, so the banner is tested as people see it.
  return { ...rest, LOG_LEVEL: "info", APP_ORIGIN: "", ...extra };
}

function exitOf(process: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (process.exitCode !== null ? resolve(process.exitCode) : process.once("exit", (code) => resolve(code))));
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, target: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port: target, timeout: 3_000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

beforeAll(async () => {
  if (!hasBuild()) throw new Error("No build: run `npm run build` first (`npm test` does).");
  port = await freePort();
  const pgPort = await freePort();
  child = spawnBuiltApp(startEnv({ PORT: String(port), EMBEDDED_POSTGRES_PORT: String(pgPort), EMBEDDED_POSTGRES_DIR: dataDir }), {
    outboxDir: join(dataDir, "outbox"),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const deadline = Date.now() + 170_000;
  while (!output.includes("KeyLedger is ready")) {
    if (child.exitCode !== null) throw new Error(`The server exited during start-up:\n${output}`);
    if (Date.now() > deadline) throw new Error(`The server did not start in time:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 180_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = exitOf(child);
    process.kill(-child.pid!, "SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the embedded demo's start", () => {
  it("listens on 127.0.0.1 only and says so, with how to open it and why to think twice", async () => {
    expect(output).toContain(`Listening on 127.0.0.1:${port}: this machine only.`);
    expect(output).toContain("HOST=0.0.0.0");
    expect(output).toContain("passwords and two-factor secret below are public");
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    // Not on the machine's other addresses (where it has any).
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address && address.family === "IPv4" && !address.internal)
      .map((address) => address!.address);
    for (const address of others) expect(await accepts(address, port), address).toBe(false);
    expect(output).toMatch(/Loaded the demo data \(\d+\.\d s\)/);
  });

  it("prints no alarming line a new user would stumble on (the job worker has no crontab to look for)", () => {
    expect(output).not.toMatch(/crontab/i);
    expect(output).not.toMatch(/"level":"(warn|error|fatal)"/);
  });

  it("refuses a HOST that is no address or host name, naming HOST, with exit code 1", async () => {
    const bad = spawnBuiltApp(
      startEnv({ HOST: "0.0.0.0:3000", DATABASE_URL: "postgresql://nobody@127.0.0.1:1/none", PORT: String(await freePort()) }),
      {
        outboxDir: join(dataDir, "outbox-bad"),
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let said = "";
    bad.stdout!.on("data", (chunk: Buffer) => (said += chunk.toString("utf8")));
    bad.stderr!.on("data", (chunk: Buffer) => (said += chunk.toString("utf8")));
    expect(await exitOf(bad)).toBe(1);
    expect(said).toContain("HOST: HOST must be an IPv4 or IPv6 address or a host name");
    expect(said).not.toMatch(/at .*\.ts:\d+/);
  }, 60_000);

  it("stops on Ctrl-C with one line: the terminal's SIGINT reaches the whole group, the embedded PostgreSQL too", async () => {
    const before = output.length;
    const exited = exitOf(child);
    process.kill(-child.pid!, "SIGINT");
    expect(await exited).toBe(0);
    const stopping = output.slice(before).trim().split("\n");
    expect(stopping[0]).toBe("SIGINT received, shutting down…");
    // Nothing else a person would read as trouble (a slow machine may let an ordinary info line
    // of a request or job in flight through; the four error lines of old were error level).
    expect(stopping.slice(1).filter((line) => !/^\{"level":"(info|debug)"/.test(line))).toEqual([]);
  }, 30_000);
});
