// The classifier against the errors that really arrive: each fixture was captured by provoking the
// failure against a real PostgreSQL 17 (refused, unknown host, connection timeout, a pool with no
// free connection, a role's connection limit, disk full raised by the server, a terminated backend,
// an immediate shutdown mid-query, a server starting up), through pg and through Prisma 7 with
// @prisma/adapter-pg, and is rebuilt here with the same classes.
import { DatabaseError } from "pg";
import { describe, expect, it } from "vitest";
import { Prisma } from "~/generated/prisma/client";
import { databaseUnavailableReason } from "./database-unavailable.server";
import fixtures from "./database-unavailable.fixtures.json";

type Captured = { class: string; message: string; [field: string]: unknown };

function rebuild(captured: Captured): unknown {
  const { class: kind, message, cause, ...fields } = captured;
  if (kind === "PrismaClientKnownRequestError") {
    const { code, clientVersion, meta } = fields as { code: string; clientVersion: string; meta: Record<string, unknown> };
    const adapter = meta.driverAdapterError as { name: string; cause: Record<string, unknown> };
    // The adapter's error is an Error named DriverAdapterError whose cause is the mapped value.
    const driverAdapterError = Object.assign(new Error(String(adapter.cause.originalMessage ?? adapter.cause.kind)), adapter);
    return new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion, meta: { ...meta, driverAdapterError } });
  }
  const error =
    kind === "DatabaseError"
      ? new DatabaseError(message, 0, "error")
      : new Error(message, cause ? { cause: rebuild(cause as Captured) } : undefined);
  return Object.assign(error, fields);
}

const expected: Record<string, string> = {
  refused: "unreachable",
  notfound: "unreachable",
  down: "unreachable",
  connectTimeout: "timeout",
  poolWait: "timeout",
  tooMany: "tooManyConnections",
  diskFull: "outOfResources",
  terminated: "shuttingDownOrStarting",
  crash: "connectionLost",
  startup: "unreachable",
};

describe("databaseUnavailableReason on captured failures", () => {
  const cases = Object.entries(fixtures as Record<string, Captured>);
  it("covers every captured case", () => expect(cases.length).toBeGreaterThanOrEqual(28));
  for (const [name, captured] of cases) {
    const want = name === "startup.57P03" ? "shuttingDownOrStarting" : expected[name.slice(0, name.indexOf("."))];
    it(`${name} → ${want}`, () => expect(databaseUnavailableReason(rebuild(captured))).toBe(want));
  }
});

describe("real faults stay faults", () => {
  it.each([
    [
      "a unique violation through Prisma",
      new Prisma.PrismaClientKnownRequestError("Unique constraint failed", { code: "P2002", clientVersion: "7" }),
    ],
    ["a syntax error from pg", Object.assign(new DatabaseError('syntax error at or near "SELEC"', 0, "error"), { code: "42601" })],
    ["a deadlock", Object.assign(new DatabaseError("deadlock detected", 0, "error"), { code: "40P01" })],
    [
      "a statement timeout (57014 is ours to fix, not an outage)",
      Object.assign(new DatabaseError("canceling statement", 0, "error"), { code: "57014" }),
    ],
    ["a TypeError", new TypeError("Cannot read properties of undefined")],
    [
      "a transaction used after its commit (P2028)",
      new Prisma.PrismaClientKnownRequestError(
        "Transaction API error: Transaction already closed: A query cannot be executed on a committed transaction.",
        { code: "P2028", clientVersion: "7" },
      ),
    ],
    ["a string", "Connection terminated unexpectedly"],
    ["nothing", undefined],
  ])("%s", (_, error) => expect(databaseUnavailableReason(error)).toBeNull());

  it("a pool timeout that Prisma reports as P2028 is one", () => {
    const error = new Prisma.PrismaClientKnownRequestError("Transaction API error: Unable to start a transaction in the given time.", {
      code: "P2028",
      clientVersion: "7",
    });
    expect(databaseUnavailableReason(error)).toBe("timeout");
  });

  it("a transaction that expired while its statements waited (P2028) is one", () => {
    const error = new Prisma.PrismaClientKnownRequestError(
      "Transaction API error: Transaction already closed: A query cannot be executed on an expired transaction. The timeout for this transaction was 5000 ms, however 7312 ms passed since the start of the transaction. Consider increasing the interactive transaction timeout or doing less work in the transaction.",
      { code: "P2028", clientVersion: "7" },
    );
    expect(databaseUnavailableReason(error)).toBe("transactionExpired");
  });

  it("a lock wait that lock_timeout ended (55P03) is one, from pg and through Prisma's adapter", () => {
    const fromPg = Object.assign(new DatabaseError("canceling statement due to lock timeout", 0, "error"), { code: "55P03" });
    expect(databaseUnavailableReason(fromPg)).toBe("lockTimeout");
    const driverAdapterError = Object.assign(new Error("canceling statement due to lock timeout"), {
      name: "DriverAdapterError",
      cause: { originalCode: "55P03", originalMessage: "canceling statement due to lock timeout", kind: "postgres" },
    });
    const throughPrisma = new Prisma.PrismaClientKnownRequestError("Raw query failed. Code: `55P03`.", {
      code: "P2010",
      clientVersion: "7",
      meta: { driverAdapterError },
    });
    expect(databaseUnavailableReason(throughPrisma)).toBe("lockTimeout");
  });

  it("a statement pg gave up waiting for (query_timeout) is one", () => {
    expect(databaseUnavailableReason(new Error("Query read timeout"))).toBe("timeout");
  });

  it("a bare pg.Client's connection timeout (a server that accepts and does not answer) is one", () => {
    expect(databaseUnavailableReason(new Error("timeout expired"))).toBe("timeout");
  });

  it("an AggregateError of refused attempts (a name with IPv4 and IPv6 addresses) is one", () => {
    const attempt = Object.assign(new Error("connect ECONNREFUSED ::1:5432"), { code: "ECONNREFUSED", syscall: "connect" });
    expect(databaseUnavailableReason(new AggregateError([attempt, attempt]))).toBe("unreachable");
  });

  it("a cycle of causes ends", () => {
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    Object.assign(a, { cause: b });
    expect(databaseUnavailableReason(a)).toBeNull();
  });
});
