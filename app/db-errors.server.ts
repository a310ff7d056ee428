// What a failed write means, from Prisma's error: a unique value taken, a conflict PostgreSQL broke
// by failing this transaction, a referenced row gone. The database being unavailable is
// app/lib/database-unavailable.server.ts's to say.
import { Prisma } from "~/generated/prisma/client";

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
