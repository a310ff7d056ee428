// The digest writer: seals the events of one organization's log that no transaction still in
// flight can add to, in stream order, into the next signed digest (digest-document.ts). Runs in the
// digest job, never in an audited change's transaction: recording an event costs what it did.
// Safe to run twice at once: the digest's (organization, sequence) key lets one of two writers
// insert the next digest; the other finds the row taken and stops.
import type pg from "pg";
import { pool } from "~/db.server";
import {
  DIGEST_FORMAT,
  documentText,
  digestSha256,
  encodeEntries,
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
 */
export const SEALED_EVENTS_SQL = `
  SELECT id::text AS id, (extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms, action,
         actor_kind::text AS actor_kind, actor_id, target_type, target_id, details::text AS details,
         COALESCE(transaction_id, '0'::xid8)::text AS transaction_id
  FROM audit_events
  WHERE organization_id = $1
    AND (COALESCE(transaction_id, '0'::xid8), id) > ($2::xid8, $3::uuid)
    AND COALESCE(transaction_id, '0'::xid8) < $4::xid8
  ORDER BY COALESCE(audit_events.transaction_id, '0'::xid8), audit_events.id
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

/**
 * Writes the organization's next digests: every event below the horizon read now that no digest
 * holds yet, MAX_DIGEST_EVENTS to a digest. Nothing when there is nothing new (an empty period has
 * no digest: the next one's periodStart says since when). Stops early when another writer got
 * there first.
 */
export async function sealOrganization(
  organizationId: string,
  key: SigningKey,
  options: { maxEvents?: number; db?: pg.Pool } = {},
): Promise<SealResult> {
  const db = options.db ?? pool();
  const maxEvents = options.maxEvents ?? MAX_DIGEST_EVENTS;
  const result: SealResult = { digests: 0, events: 0 };
  for (;;) {
    const tip = await chainTip(db, organizationId);
    const { rows: now } = await db.query<{ horizon: string; closed_at: Date }>(
      "SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon, clock_timestamp() AS closed_at",
    );
    const { horizon, closed_at: closedAt } = now[0]!;
    const after = tip?.last ?? START_POSITION;
    const { rows } = await db.query<SealedEventRow>(SEALED_EVENTS_SQL, [
      organizationId,
      after.transactionId,
      after.eventId,
      horizon,
      maxEvents,
    ]);
    if (rows.length === 0) return result;
    const entries = rows.map((row) => entryOf(organizationId, row));
    const encoded = encodeEntries(entries);
    const lastRow = rows[rows.length - 1]!;
    const document: DigestDocument = {
      format: DIGEST_FORMAT,
      organizationId,
      sequence: (tip?.sequence ?? 0) + 1,
      periodStart: tip ? tip.periodEnd.toISOString() : null,
      periodEnd: closedAt.toISOString(),
      after: tip ? tip.last : null,
      last: { transactionId: lastRow.transaction_id, eventId: lastRow.id },
      horizon,
      eventCount: entries.length,
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
      document.last.transactionId,
      document.last.eventId,
      horizon,
      document.eventCount,
      key.id,
      text,
      signText(key, text),
      encoded,
    ]);
    if (inserted.rowCount === 0) return result;
    result.digests += 1;
    result.events += entries.length;
    if (rows.length < maxEvents) return result;
  }
}
