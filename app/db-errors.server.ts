// What a failed write means, from Prisma's error: a unique value taken, a conflict PostgreSQL broke
// by failing this transaction, a referenced row gone, a transaction that ran past its timeout. The
// database being unavailable is app/lib/database-unavailable.server.ts's to say.
import { Prisma, type PrismaClient } from "~/generated/prisma/client";

/** A unique constraint refused the write (Prisma's P2002), optionally on a given column. */
export function isUniqueViolation(error: unknown, column?: string): boolean {
  return (
    error instanceof Prisma.PrismaClientKnownRequestError &&
    error.code === "P2002" &&
    (column === undefined || JSON.stringify(error.meta ?? {}).includes(column))
  );
}

/** PostgreSQL broke a deadlock or a serialization conflict by failing this transaction (40P01,
 * 40001: Prisma's P2034, or the raw query's own error): running it again is the answer. */
export function isRetryableConflict(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2034") return true;
  return (
    error.code === "P2010" && /40P01|40001|deadlock detected|could not serialize/.test(JSON.stringify(error.meta ?? {}) + error.message)
  );
}

/** A row the write refers to is gone (Prisma's P2003, a foreign key; P2025, a required record):
 * deleted by someone else between the check and the write. */
export function isVanishedReference(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && (error.code === "P2003" || error.code === "P2025");
}

/**
 * Prisma's `$transaction`, with an interactive transaction that fails after its timeout (Prisma's
 * 5 s unless given) marked `transactionExpiredAfterMs` (decision 0070): Prisma closes an expired
 * transaction under a statement still running, whose result may then be missing (a `create` that
 * answers null), so whatever error follows is the expiry's, a database too slow to answer
 * (app/lib/database-unavailable.server.ts), not a fault of the code that met it.
 */
export function markingExpiry(client: PrismaClient): PrismaClient["$transaction"] {
  const transaction = client.$transaction.bind(client) as (...args: unknown[]) => Promise<unknown>;
  return ((...args: unknown[]) => {
    const started = performance.now();
    const timeout = typeof args[0] === "function" ? ((args[1] as { timeout?: number } | undefined)?.timeout ?? 5_000) : Infinity;
    return transaction(...args).catch((error: unknown) => {
      const ms = performance.now() - started;
      if (ms >= timeout && error !== null && typeof error === "object") Object.assign(error, { transactionExpiredAfterMs: Math.round(ms) });
      throw error;
    });
  }) as PrismaClient["$transaction"];
}
