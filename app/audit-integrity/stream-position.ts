// Positions in the audit log's stream order, (COALESCE(transaction_id, '0'), id), compared as
// PostgreSQL orders them: the transaction id as a number, then the uuid bytewise (which is the
// order of its lower-case text). Pure.
import type { StreamPosition } from "./digest-document";

/** A position with its transaction id read once as a number, for the many comparisons of a walk. */
export interface NumericPosition {
  transactionId: bigint;
  eventId: string;
}

export function numericPosition(position: StreamPosition): NumericPosition {
  return { transactionId: BigInt(position.transactionId), eventId: position.eventId.toLowerCase() };
}

/** Negative when a sorts before b, 0 when equal, positive after. */
export function comparePositions(a: NumericPosition, b: NumericPosition): number {
  if (a.transactionId !== b.transactionId) return a.transactionId < b.transactionId ? -1 : 1;
  return a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0;
}

export function samePosition(a: StreamPosition | null, b: StreamPosition | null): boolean {
  if (a === null || b === null) return a === b;
  return a.transactionId === b.transactionId && a.eventId.toLowerCase() === b.eventId.toLowerCase();
}
