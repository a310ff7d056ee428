// waitForDatabase against real servers: the test database (reachable), a port nothing listens on
// (refused: waited for, then a clear message), a wrong password (not waited for), and a SIGTERM's
// abort during the wait.
import { describe, expect, it } from "vitest";
import { freePort } from "./free-port.ts";
import { databaseAddress, waitForDatabase } from "./wait-for-database.ts";

const quiet = () => {};

describe("waitForDatabase", () => {
  it("resolves at once for a database that answers", async () => {
    const lines: string[] = [];
    await waitForDatabase({ url: process.env.DATABASE_URL!, timeoutSeconds: 5, log: (line) => lines.push(line) });
    expect(lines).toEqual([]);
  });

  it("waits for a refused one, saying where and why without the password, then gives up with a clear message", async () => {
    const port = await freePort();
    const lines: string[] = [];
    const wait = waitForDatabase({
      url: `postgresql://someone:hunter2secret@127.0.0.1:${port}/x`,
      timeoutSeconds: 2,
      intervalMs: 200,
      reportEveryMs: 500,
      log: (line) => lines.push(line),
    });
    await expect(wait).rejects.toThrow(
      `The database at 127.0.0.1:${port} did not accept connections within 2 s: connection refused (ECONNREFUSED).`,
    );
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines)
      expect(line).toMatch(new RegExp(`^Waiting for the database at 127\\.0\\.0\\.1:${port}: connection refused \\(ECONNREFUSED\\)`));
    expect(lines.join("\n")).not.toContain("hunter2secret");
  });

  it("does not wait for a wrong password: that will not get better", async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.password = "wrong-password";
    const lines: string[] = [];
    const wait = waitForDatabase({ url: url.toString(), timeoutSeconds: 30, log: (line) => lines.push(line) });
    await expect(wait).rejects.toThrow(
      /^Cannot use the database at 127\.0\.0\.1:\d+: password authentication failed .*\(28P01\)\. Check DATABASE_URL\.$/,
    );
    expect(lines).toEqual([]);
  });

  it("stops when its signal aborts (SIGTERM during the start)", async () => {
    const port = await freePort();
    const controller = new AbortController();
    const wait = waitForDatabase({
      url: `postgresql://u:p@127.0.0.1:${port}/x`,
      timeoutSeconds: 60,
      signal: controller.signal,
      log: quiet,
    });
    setTimeout(() => controller.abort(new Error("SIGTERM received")), 300);
    await expect(wait).rejects.toThrow("SIGTERM received");
  });

  it("names host:port only", () => {
    expect(databaseAddress("postgresql://user:secret@db.example.com:6543/keyledger?sslmode=require")).toBe("db.example.com:6543");
    expect(databaseAddress("postgres://user:secret@db/keyledger")).toBe("db:5432");
    expect(databaseAddress("not a url")).toBe("the configured address");
  });
});
