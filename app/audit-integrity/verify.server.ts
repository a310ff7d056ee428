// Verifies an organization's audit log against its signed digests
// (docs/decisions/0062-audit-verification.md): checks each digest (row, signature, link, entries;
// digest-checks.ts), then walks the log in stream order beside the digests' entries and names each
// event altered, inserted or deleted, each digest missing, and events left unsealed for longer
// than the digest job ever leaves them. The same verdict for the command line, the procedure and
// the page.
import type { KeyObject } from "node:crypto";
import { pool } from "~/db.server";
import { env } from "~/env.server";
import { endOfDay, startOfDay } from "~/lib/dates";
import {
  committedEntries,
  disagreeingColumns,
  linkFinding,
  parseDocument,
  replacedKeyFindings,
  signatureFinding,
  type DigestRow,
  type ReadDigest,
} from "./digest-checks";
import { eventsBetween, LogCursor } from "./log-reader.server";
import { remember, withMovedEvents, type WalkedEvent } from "./moved-events";
import { entryOf, MAX_DIGEST_EVENTS, START_POSITION } from "./seal.server";
import { configuredKeys, type PublicSigningKey } from "./signing-keys";
import { comparePositions, numericPosition } from "./stream-position";
import { FindingList, type Finding, type UnsealedReason, type Verdict } from "./verdict";

export interface VerifyOptions {
  /** First and last day (YYYY-MM-DD, UTC, both included): the digests whose period overlaps them. */
  from?: string;
  to?: string;
  /** The trusted keys; the configured ones by default. */
  keys?: readonly PublicSigningKey[];
  /** The verification's time, for the overdue rule (tests verify "later"). */
  now?: Date;
  /** AUDIT_DIGEST_INTERVAL by default. */
  digestIntervalSeconds?: number;
}

/** How long an event may wait for its digest before the job counts as not running: two periods
 * (the one it was recorded in and the next, should a run have been slow) and ten minutes. */
export function overdueAfterMs(digestIntervalSeconds: number): number {
  return (2 * digestIntervalSeconds + 600) * 1000;
}

const DIGESTS_SQL = `
  SELECT sequence, period_start, period_end, last_transaction_id::text AS last_transaction_id,
         last_event_id::text AS last_event_id, horizon::text AS horizon, event_count, key_id, document, signature
  FROM audit_digests WHERE organization_id = $1 ORDER BY sequence`;

const ENTRIES_SQL = "SELECT entries FROM audit_digests WHERE organization_id = $1 AND sequence = $2";

/** The first transaction id the server has not handed out yet. */
const NEXT_XID_SQL = "SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax";

function unsealed(reason: UnsealedReason, pendingEvents = 0): Verdict {
  return {
    status: "unsealed",
    reason,
    digestsChecked: 0,
    eventsChecked: 0,
    pendingEvents,
    firstDigestAt: null,
    lastDigestAt: null,
    findings: [],
    moreFindings: 0,
  };
}

/** The digests in chain order (by their signed sequence), one per number: of two rows claiming one,
 * the one stored under it (the other is already named as disagreeing with its row). */
function chainOrder(digests: ReadDigest[]): ReadDigest[] {
  const bySequence = new Map<number, ReadDigest>();
  for (const digest of digests) {
    const taken = bySequence.get(digest.document.sequence);
    if (!taken || digest.row.sequence === digest.document.sequence) bySequence.set(digest.document.sequence, digest);
  }
  return [...bySequence.values()].sort((a, b) => a.document.sequence - b.document.sequence);
}

/** The indexes of the first and last digest whose period overlaps the days, or null. */
function pickedRange(chain: ReadDigest[], from?: string, to?: string): [number, number] | null {
  const start = from ? startOfDay(from).getTime() : -Infinity;
  const end = to ? endOfDay(to).getTime() : Infinity;
  const picked = chain.flatMap((digest, index) => {
    const periodStart = digest.document.periodStart ? Date.parse(digest.document.periodStart) : -Infinity;
    return Date.parse(digest.document.periodEnd) >= start && periodStart < end ? [index] : [];
  });
  return picked.length > 0 ? [picked[0]!, picked[picked.length - 1]!] : null;
}

export async function verifyAuditLog(organizationId: string, options: VerifyOptions = {}): Promise<Verdict> {
  const keys = options.keys ?? configuredKeys();
  if (keys.length === 0) return unsealed("no-key");
  const trusted = new Map<string, KeyObject>(keys.map((key) => [key.id, key.key]));
  const findings = new FindingList();
  const { rows } = await pool().query<DigestRow>(DIGESTS_SQL, [organizationId]);
  const readable: ReadDigest[] = [];
  for (const row of rows) {
    const document = parseDocument(row.document, organizationId);
    if (!document) {
      findings.add({ kind: "digest-row-mismatch", sequence: row.sequence, documentSequence: null, columns: ["document"] });
      continue;
    }
    const columns = disagreeingColumns(row, document);
    if (columns.length > 0)
      findings.add({ kind: "digest-row-mismatch", sequence: row.sequence, documentSequence: document.sequence, columns });
    readable.push({ row, document });
  }
  const chain = chainOrder(readable);
  const picked = chain.length > 0 ? pickedRange(chain, options.from, options.to) : null;

  const walk = new LogWalk(organizationId, options);
  // No digest's period overlaps the days: they lie after the newest digest (every earlier day
  // overlaps one), so what is after it is checked as for the whole log: digests deleted from the
  // end, or all of them, are named for some days too, not reported as a log not sealed yet.
  const [first, last] = picked ?? [chain.length, chain.length - 1];
  const newest = chain[chain.length - 1] ?? null;
  // Each digest's stretch of the log is read and checked on its own, a few at once: while one
  // waits for its rows, another hashes. Their findings are reported in chain order.
  const tasks: (() => Promise<FindingList>)[] = [];
  const replacedKeys = replacedKeyFindings(
    chain.map((digest) => digest.document),
    keys,
  );
  for (let index = first; index <= last; index++) {
    const [digest, previous] = [chain[index]!, chain[index - 1] ?? null];
    tasks.push(() => walk.digest(digest, previous, trusted, replacedKeys.get(digest.document.sequence)));
  }
  if (last === chain.length - 1) tasks.push(() => walk.unsealedTail(newest));
  for (const found of await inOrder(tasks, VERIFY_CONCURRENCY)) findings.addAll(found);

  if (!picked && findings.count === 0) return unsealed(chain.length > 0 ? "no-digest-in-range" : "no-digest", walk.pendingEvents);
  return {
    status: findings.count > 0 ? "tampered" : "intact",
    digestsChecked: last - first + 1,
    eventsChecked: walk.eventsChecked,
    pendingEvents: walk.pendingEvents,
    firstDigestAt: chain[first]?.document.periodEnd ?? null,
    lastDigestAt: chain[last]?.document.periodEnd ?? null,
    findings: withMovedEvents(findings.findings, walk.inserted, walk.deleted),
    moreFindings: findings.more,
  };
}

/** Digests checked at once: enough to keep the database and this process both busy. */
const VERIFY_CONCURRENCY = 3;

/** Runs the tasks, at most `concurrency` at a time; their results in the tasks' order. */
async function inOrder<T>(tasks: (() => Promise<T>)[], concurrency: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
  return results;
}

const isoOf = (createdMs: string | number) => new Date(Number(createdMs)).toISOString();

/** The walk along the log: each digest's range, then what is not sealed yet. */
class LogWalk {
  eventsChecked = 0;
  pendingEvents = 0;
  /** The events named inserted and deleted (a bounded number each: a wiped log has a million), to
   * name one that is both as moved. */
  readonly inserted = new Map<string, WalkedEvent>();
  readonly deleted = new Map<string, WalkedEvent>();
  private nextTransactionId: bigint | null = null;

  constructor(
    private readonly organizationId: string,
    private readonly options: VerifyOptions,
  ) {}

  /** Checks one digest and the events from its predecessor's last on (those before its own range
   * are the missing digests' between them: counted, not checked). */
  async digest(
    digest: ReadDigest,
    previous: ReadDigest | null,
    trusted: ReadonlyMap<string, KeyObject>,
    replacedKey: Finding | undefined,
  ): Promise<FindingList> {
    const findings = new FindingList();
    const { document } = digest;
    const cursor = new LogCursor(eventsBetween(this.organizationId, previous?.document.last ?? START_POSITION, document.last));
    const signature = signatureFinding(digest, trusted);
    if (signature) findings.add(signature);
    if (replacedKey) findings.add(replacedKey);
    const link = linkFinding(document, previous);
    // Events before the range: those the missing digests covered, counted, not called inserted.
    let skipped = 0;
    if (document.after) {
      const after = numericPosition(document.after);
      while (await cursor.takeUpTo(after, comparePositions)) skipped += 1;
    }
    if (link?.kind === "digest-missing") link.events = skipped;
    if (link) findings.add(link);

    const entries = await this.entriesOf(digest);
    const lastPosition = numericPosition(document.last);
    if (!entries) {
      // Entries not the signed ones tell nothing about single events: the finding is the entries.
      findings.add({ kind: "entries-altered", sequence: document.sequence });
      while (await cursor.takeUpTo(lastPosition, comparePositions)) this.eventsChecked += 1;
      return findings;
    }
    const indexOf = new Map<string, number>();
    entries.forEach((entry, index) => indexOf.set(entry.eventId, index));
    const seen = new Uint8Array(entries.length);
    for (let event; (event = await cursor.takeUpTo(lastPosition, comparePositions));) {
      this.eventsChecked += 1;
      const index = indexOf.get(event.row.id);
      if (index === undefined || seen[index]) {
        remember(this.inserted, event.row.id, () => ({
          sha256: entryOf(this.organizationId, event.row).sha256,
          sequence: document.sequence,
        }));
        findings.add({
          kind: "event-inserted",
          eventId: event.row.id,
          createdAt: isoOf(event.row.created_ms),
          sequence: document.sequence,
        });
        continue;
      }
      seen[index] = 1;
      if (!entryOf(this.organizationId, event.row).sha256.equals(entries[index]!.sha256)) {
        findings.add({ kind: "event-altered", eventId: event.row.id, createdAt: isoOf(event.row.created_ms), sequence: document.sequence });
      }
    }
    entries.forEach((entry, index) => {
      if (seen[index]) return;
      remember(this.deleted, entry.eventId, () => ({ sha256: entry.sha256, sequence: document.sequence }));
      findings.add({ kind: "event-deleted", eventId: entry.eventId, createdAt: isoOf(entry.createdAtMs), sequence: document.sequence });
    });
    return findings;
  }

  /** The entries the digest's document commits to, or null. A document moved to another row (rows
   * swapped: already named) is matched with the entries stored under its own number too. */
  private async entriesOf({ row, document }: ReadDigest) {
    const read = async (sequence: number) => {
      const { rows } = await pool().query<{ entries: Buffer }>(ENTRIES_SQL, [this.organizationId, sequence]);
      return committedEntries(document, rows[0]?.entries ?? Buffer.alloc(0));
    };
    const entries = await read(row.sequence);
    return entries || row.sequence === document.sequence ? entries : read(document.sequence);
  }

  /**
   * The events after the newest digest. Inserted: those whose transaction had ended when that
   * digest was made (below its horizon: it would have sealed them, unless it was full and the next
   * one is still to come) and those with a transaction id the server never handed out. The rest
   * are pending; pending for longer than overdueAfterMs, they say the newest digests are missing
   * or the job is not running.
   */
  async unsealedTail(newest: ReadDigest | null): Promise<FindingList> {
    const findings = new FindingList();
    const cursor = new LogCursor(eventsBetween(this.organizationId, newest?.document.last ?? START_POSITION));
    const horizon = newest ? BigInt(newest.document.horizon) : 0n;
    const couldHoldMore = newest !== null && newest.document.eventCount < MAX_DIGEST_EVENTS;
    const now = (this.options.now ?? new Date()).getTime();
    const cutoff = now - overdueAfterMs(this.options.digestIntervalSeconds ?? env().AUDIT_DIGEST_INTERVAL);
    let overdueEvents = 0;
    let oldest = Infinity;
    for (let event; (event = await cursor.takeUpTo(null, comparePositions));) {
      const createdMs = Number(event.row.created_ms);
      const transactionId = event.position.transactionId;
      if ((couldHoldMore && transactionId < horizon) || (await this.neverIssued(transactionId))) {
        remember(this.inserted, event.row.id, () => ({ sha256: entryOf(this.organizationId, event.row).sha256, sequence: null }));
        findings.add({ kind: "event-inserted", eventId: event.row.id, createdAt: isoOf(createdMs), sequence: null });
        continue;
      }
      this.pendingEvents += 1;
      if (createdMs < cutoff) {
        overdueEvents += 1;
        oldest = Math.min(oldest, createdMs);
      }
    }
    if (overdueEvents > 0) {
      const oldestEventAt = new Date(oldest).toISOString();
      findings.add({ kind: "sealing-overdue", newestSequence: newest?.document.sequence ?? null, overdueEvents, oldestEventAt });
    }
    return findings;
  }

  /** Whether no transaction ever had this id: at or past the next id, read after the event was (so
   * a transaction that committed during the walk is not mistaken for one). */
  private async neverIssued(transactionId: bigint): Promise<boolean> {
    if (this.nextTransactionId !== null && transactionId < this.nextTransactionId) return false;
    const { rows } = await pool().query<{ xmax: string }>(NEXT_XID_SQL);
    this.nextTransactionId = BigInt(rows[0]!.xmax);
    return transactionId >= this.nextTransactionId;
  }
}
