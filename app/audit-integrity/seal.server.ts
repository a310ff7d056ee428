// The digest writer: seals the events of one organization's log that no transaction still in
// flight can add to, in stream order, into the next signed digest (digest-document.ts). Runs in the
// digest job, never in an audited change's transaction: recording an event costs what it did.
// Safe to run twice at once: the digest's (organization, sequence) key lets one of two writers
// insert the next digest; the other finds the row taken and stops.
import type pg from "pg";
import { pool } from "~/db.server";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import {
  DIGEST_FORMAT,
  documentText,
  digestSha256,
  ENTRY_BYTES,
  sha256Hex,
  type DigestDocument,
  type DigestEntry,
  type StreamPosition,
} from "./digest-document";
import { eventSha256 } from "./event-content";
import { signText, type SigningKey } from "./signing-keys";

/** Events per digest at most: a busier period becomes several digests, written one after another. */
export const MAX_DIGEST_EVENTS = 50_000;

/** The newest digest's facts the next one continues from. */
export interface ChainTip {
  sequence: number;
  periodEnd: Date;
  last: StreamPosition;
  horizon: string;
  documentText: string;
}

const TIP_SQL = `
  SELECT sequence, period_end, last_transaction_id::text AS last_transaction_id, last_event_id::text AS last_event_id,
         horizon::text AS horizon, document
  FROM audit_digests WHERE organization_id = $1 ORDER BY sequence DESC LIMIT 1`;

/** The organization's newest digest, or null before its first. */
export async function chainTip(db: pg.Pool | pg.PoolClient, organizationId: string): Promise<ChainTip | null> {
  const { rows } = await db.query(TIP_SQL, [organizationId]);
  const row = rows[0];
  if (!row) return null;
  return {
    sequence: row.sequence,
    periodEnd: row.period_end,
    last: { transactionId: row.last_transaction_id, eventId: row.last_event_id },
    horizon: row.horizon,
    documentText: row.document,
  };
}

/** Before the first event: nothing sorts before transaction 0 and the nil UUID. */
export const START_POSITION: StreamPosition = { transactionId: "0", eventId: "00000000-0000-0000-0000-000000000000" };

/**
 * The events after `after` whose transaction id is below `horizon`, in stream order, with the
 * facts a digest seals (event-content.ts). created_at comes as milliseconds (it is stored to the
 * millisecond) and details as text, parsed here, so nothing is lost to a driver's conversions.
 * The columns are qualified: a bare `id` in ORDER BY would name the output column (the id as text),
 * sorting by the text's collation instead of the stream order, and every batch would sort all the
 * organization's events instead of reading the stream order index from `after`.
 */
export const SEALED_EVENTS_SQL = `
  SELECT e.id::text AS id, (extract(epoch FROM e.created_at) * 1000)::bigint::text AS created_ms, e.action,
         e.actor_kind::text AS actor_kind, e.actor_id, e.target_type, e.target_id, e.details::text AS details,
         COALESCE(e.transaction_id, '0'::xid8)::text AS transaction_id
  FROM audit_events e
  WHERE e.organization_id = $1
    AND (COALESCE(e.transaction_id, '0'::xid8), e.id) > ($2::xid8, $3::uuid)
    AND COALESCE(e.transaction_id, '0'::xid8) < $4::xid8
  ORDER BY COALESCE(e.transaction_id, '0'::xid8), e.id
  LIMIT $5`;

export interface SealedEventRow {
  id: string;
  created_ms: string;
  action: string;
  actor_kind: string;
  actor_id: string;
  target_type: string;
  target_id: string;
  details: string;
  transaction_id: string;
}

/** A row's digest entry. */
export function entryOf(organizationId: string, row: SealedEventRow): DigestEntry {
  const createdAtMs = Number(row.created_ms);
  const sha256 = eventSha256({
    id: row.id,
    organizationId,
    createdAtMs,
    action: row.action,
    actorKind: row.actor_kind,
    actorId: row.actor_id,
    targetType: row.target_type,
    targetId: row.target_id,
    details: JSON.parse(row.details),
  });
  return { eventId: row.id, createdAtMs, sha256 };
}

const INSERT_SQL = `
  INSERT INTO audit_digests (organization_id, sequence, period_start, period_end, last_transaction_id, last_event_id,
                             horizon, event_count, key_id, document, signature, entries)
  VALUES ($1, $2, $3, $4, $5::xid8, $6::uuid, $7::xid8, $8, $9, $10, $11, $12)
  ON CONFLICT (organization_id, sequence) DO NOTHING
  RETURNING sequence`;

export interface SealResult {
  digests: number;
  events: number;
}

/** Rows hashed between two looks at the event loop: requests served by this process wait at most a few milliseconds. */
const ROWS_PER_SLICE = 2_000;

/**
 * The entries' bytes of rows read with rowMode "array" (SEALED_EVENTS_SQL's columns), exactly
 * encodeEntries(rows.map(entryOf)) without the objects between: the digest job's hot loop.
 */
export async function encodeSealedRows(organizationId: string, rows: readonly unknown[][]): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(rows.length * ENTRY_BYTES);
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % ROWS_PER_SLICE === 0) await yieldToEventLoop();
    const [id, createdMs, action, actorKind, actorId, targetType, targetId, details] = rows[i] as string[];
    const createdAtMs = Number(createdMs);
    const at = i * ENTRY_BYTES;
    // uuid::text: always 32 lowercase hex digits and four dashes.
    buf.write(id!.replaceAll("-", ""), at, 16, "hex");
    buf.writeBigInt64BE(BigInt(createdAtMs), at + 16);
    const sha256 = eventSha256({
      id: id!,
      organizationId,
      createdAtMs,
      action: action!,
      actorKind: actorKind!,
      actorId: actorId!,
      targetType: targetType!,
      targetId: targetId!,
      details: JSON.parse(details!),
    });
    sha256.copy(buf, at + 24);
  }
  return buf;
}

/** A batch of events to seal: the horizon they lie below, when it was read, and the rows. */
interface Batch {
  horizon: string;
  closedAt: Date;
  rows: unknown[][];
}

/** The events after `after` below the horizon read now, at most `maxEvents`, as arrays (no objects per row). */
async function readBatch(db: pg.Pool, organizationId: string, after: StreamPosition, maxEvents: number): Promise<Batch> {
  const { rows: now } = await db.query<{ horizon: string; closed_at: Date }>(
    "SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon, clock_timestamp() AS closed_at",
  );
  const { horizon, closed_at: closedAt } = now[0]!;
  const { rows } = await db.query<unknown[]>({
    text: SEALED_EVENTS_SQL,
    values: [organizationId, after.transactionId, after.eventId, horizon, maxEvents],
    rowMode: "array",
  });
  return { horizon, closedAt, rows };
}

/**
 * Writes the organization's next digests: every event below the horizon read now that no digest
 * holds yet, MAX_DIGEST_EVENTS to a digest. Nothing when there is nothing new (an empty period has
 * no digest: the next one's periodStart says since when). Stops early when another writer got
 * there first. A busy log's next batch is read while this one is hashed and signed, so the
 * database and this process work side by side.
 */
export async function sealOrganization(
  organizationId: string,
  key: SigningKey,
  options: { maxEvents?: number; db?: pg.Pool } = {},
): Promise<SealResult> {
  const db = options.db ?? pool();
  const maxEvents = options.maxEvents ?? MAX_DIGEST_EVENTS;
  const result: SealResult = { digests: 0, events: 0 };
  let tip = await chainTip(db, organizationId);
  let next = readBatch(db, organizationId, tip?.last ?? START_POSITION, maxEvents);
  for (;;) {
    const batch = await next;
    const { rows, horizon, closedAt } = batch;
    if (rows.length === 0) return result;
    const lastRow = rows[rows.length - 1]!;
    const last: StreamPosition = { transactionId: lastRow[8] as string, eventId: lastRow[0] as string };
    const full = rows.length >= maxEvents;
    if (full) {
      next = readBatch(db, organizationId, last, maxEvents);
      // Not awaited when this writer stops first (another got there): its failure is nobody's.
      next.catch(() => {});
    }
    const encoded = await encodeSealedRows(organizationId, rows);
    const document: DigestDocument = {
      format: DIGEST_FORMAT,
      organizationId,
      sequence: (tip?.sequence ?? 0) + 1,
      periodStart: tip ? tip.periodEnd.toISOString() : null,
      periodEnd: closedAt.toISOString(),
      after: tip ? tip.last : null,
      last,
      horizon,
      eventCount: rows.length,
      eventsSha256: sha256Hex(encoded),
      previousDigestSha256: tip ? digestSha256(tip.documentText) : null,
      keyId: key.id,
    };
    const text = documentText(document);
    const inserted = await db.query(INSERT_SQL, [
      organizationId,
      document.sequence,
      tip ? tip.periodEnd : null,
      closedAt,
      last.transactionId,
      last.eventId,
      horizon,
      document.eventCount,
      key.id,
      text,
      signText(key, text),
      encoded,
    ]);
    if (inserted.rowCount === 0) return result;
    result.digests += 1;
    result.events += rows.length;
    if (!full) return result;
    tip = { sequence: document.sequence, periodEnd: closedAt, last, horizon, documentText: text };
  }
}
