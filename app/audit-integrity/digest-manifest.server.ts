// The digests download (GET /api/organizations/:organizationId/audit-log/digests): the signed
// digests that cover an export's date range, as one JSON manifest, for checking the export with
// no access to the server (scripts/verify-audit-export.mjs; docs/offline-verification.md;
// docs/decisions/0063-offline-audit-proof.md). Same gate as the export: the export's access check,
// billing (409) and rate limits (429) before anything is read.
//
// Which digests: every digest with an entry created in [from, to) (each entry carries its event's
// created_at, signed), plus those between them, so the chain runs without a gap. A digest whose
// period ended before `from` holds no such entry (an event is sealed only after it committed); a
// later one may (a transaction that ran across a digest), so the digests after the range are read
// back from the newest until one holds an entry in it. The manifest is written digest by digest:
// a range of a million events is never one string in memory.
import type { AuditExporter } from "~/access/organization-access.server";
import type { AuditExportRequest, AuditFilters } from "~/audit/audit-query";
import { pool } from "~/db.server";
import { isoDay } from "~/lib/dates";
import { admitExportDownload } from "~/audit/export/export-audit-log.server";
import { refundEach, type PolicyState } from "~/lib/rate-limit.server";
import { ENTRY_BYTES } from "./digest-document";
import { configuredKeys, publishedKey } from "./signing-keys";

export const MANIFEST_FORMAT = "keyledger-audit-manifest/1";

export interface DigestManifestFile {
  body: ReadableStream<Uint8Array>;
  fileName: string;
  rateLimits: PolicyState[];
}

/** A digest as listed for the range search: its number and when its period ended. */
interface ListedDigest {
  sequence: number;
  periodEnd: Date;
}

/** The instants an export's filters select: [from, before). */
interface CreatedRange {
  fromMs: number;
  beforeMs: number;
}

/** Whether any entry's created_at (bytes 16..24 of each 56) falls in the range. */
export function entriesTouch(entries: Buffer, range: CreatedRange): boolean {
  for (let at = 16; at + 8 <= entries.length; at += ENTRY_BYTES) {
    const ms = Number(entries.readBigInt64BE(at));
    if (ms >= range.fromMs && ms < range.beforeMs) return true;
  }
  return false;
}

async function entriesOf(organizationId: string, sequence: number): Promise<Buffer> {
  const { rows } = await pool().query<{ entries: Buffer }>(
    "SELECT entries FROM audit_digests WHERE organization_id = $1 AND sequence = $2",
    [organizationId, sequence],
  );
  return rows[0]?.entries ?? Buffer.alloc(0);
}

/**
 * The first and last digest to list, or null when no digest holds an event of the range. Without
 * dates, every digest. The candidates' entries are read one digest at a time (at most 2.8 MB).
 */
export async function digestSpan(organizationId: string, range: CreatedRange): Promise<{ first: number; last: number } | null> {
  const { rows } = await pool().query<{ sequence: number; period_end: Date }>(
    `SELECT sequence, period_end FROM audit_digests
     WHERE organization_id = $1 AND ($2::timestamptz IS NULL OR period_end >= $2::timestamptz) ORDER BY sequence`,
    [organizationId, Number.isFinite(range.fromMs) ? new Date(range.fromMs) : null],
  );
  const candidates: ListedDigest[] = rows.map((row) => ({ sequence: row.sequence, periodEnd: row.period_end }));
  if (candidates.length === 0) return null;
  if (range.fromMs === -Infinity && range.beforeMs === Infinity) {
    return { first: candidates[0]!.sequence, last: candidates[candidates.length - 1]!.sequence };
  }
  let firstIndex = -1;
  for (let i = 0; i < candidates.length; i++) {
    if (entriesTouch(await entriesOf(organizationId, candidates[i]!.sequence), range)) {
      firstIndex = i;
      break;
    }
  }
  if (firstIndex < 0) return null;
  // Open-ended: through the newest digest, so a verifier can tell the newest one was not left out.
  if (range.beforeMs === Infinity) return { first: candidates[firstIndex]!.sequence, last: candidates[candidates.length - 1]!.sequence };
  for (let i = candidates.length - 1; i > firstIndex; i--) {
    if (entriesTouch(await entriesOf(organizationId, candidates[i]!.sequence), range)) {
      return { first: candidates[firstIndex]!.sequence, last: candidates[i]!.sequence };
    }
  }
  return { first: candidates[firstIndex]!.sequence, last: candidates[firstIndex]!.sequence };
}

/** The organization's newest digest: the verifier tells "not yet sealed" from "inserted" by it. */
async function newestDigest(organizationId: string): Promise<{ sequence: number; periodEnd: string } | null> {
  const { rows } = await pool().query<{ sequence: number; period_end: Date }>(
    "SELECT sequence, period_end FROM audit_digests WHERE organization_id = $1 ORDER BY sequence DESC LIMIT 1",
    [organizationId],
  );
  const row = rows[0];
  return row ? { sequence: row.sequence, periodEnd: row.period_end.toISOString() } : null;
}

/** One digest as the manifest lists it: the exact signed text, the signature and entries in base64. */
async function digestLine(organizationId: string, sequence: number): Promise<string> {
  const { rows } = await pool().query<{ document: string; signature: Buffer; entries: Buffer }>(
    "SELECT document, signature, entries FROM audit_digests WHERE organization_id = $1 AND sequence = $2",
    [organizationId, sequence],
  );
  const row = rows[0];
  if (!row) throw new Error(`digest ${sequence} went away while the manifest was written`);
  return `{"sequence":${sequence},"document":${JSON.stringify(row.document)},"signature":"${row.signature.toString("base64")}","entries":"${row.entries.toString("base64")}"}`;
}

/** The filters as the manifest (and the export's audit.exported event) name them: only those given. */
function givenFilters(filters: AuditFilters): AuditFilters {
  const { action, actorId, targetId, from, to } = filters;
  return Object.fromEntries(Object.entries({ action, actorId, targetId, from, to }).filter(([, v]) => v !== undefined));
}

/** `audit-digests-<slug>-<from>-to-<to>.json`, named as the export's file for the same range. */
export function manifestFileName(slug: string, filters: AuditFilters, now = new Date()): string {
  const range = filters.from ? `${filters.from}-to-${filters.to ?? isoDay(now)}` : `until-${filters.to ?? isoDay(now)}`;
  return `audit-digests-${slug}-${range}.json`;
}

/** The manifest's opening, up to the digests' list. */
async function manifestHead(organizationId: string, filters: AuditFilters): Promise<string> {
  const head = {
    format: MANIFEST_FORMAT,
    organizationId,
    from: filters.from ?? null,
    to: filters.to ?? null,
    filters: givenFilters(filters),
    generatedAt: new Date().toISOString(),
    newestDigest: await newestDigest(organizationId),
    keys: configuredKeys().map(publishedKey),
  };
  return `${JSON.stringify(head).slice(0, -1)},"digests":[`;
}

/** The manifest as a stream: the head, then one digest per line, read as the client takes them. */
function manifestStream(organizationId: string, head: string, span: { first: number; last: number } | null) {
  const encoder = new TextEncoder();
  let next = span?.first ?? 1;
  const last = span?.last ?? 0;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(head));
      },
      async pull(controller) {
        if (next > last) {
          controller.enqueue(encoder.encode(span ? "\n]}\n" : "]}\n"));
          controller.close();
          return;
        }
        const separator = next === span!.first ? "\n" : ",\n";
        controller.enqueue(encoder.encode(separator + (await digestLine(organizationId, next))));
        next += 1;
      },
    },
    { highWaterMark: 1 },
  );
}

/**
 * The digests for an export's range, for a caller who passed the export's check: the export's
 * billing check and rate limits (admitExportDownload; a download counts as one export), then the
 * manifest.
 */
export async function downloadDigests(access: AuditExporter, request: AuditExportRequest): Promise<DigestManifestFile> {
  const { organization } = access;
  const { points, rateLimits } = await admitExportDownload(access);
  try {
    const range: CreatedRange = {
      fromMs: request.query.createdFrom?.getTime() ?? -Infinity,
      beforeMs: request.query.createdBefore?.getTime() ?? Infinity,
    };
    const span = await digestSpan(organization.id, range);
    const head = await manifestHead(organization.id, request.query.filters);
    return {
      body: manifestStream(organization.id, head, span),
      fileName: manifestFileName(organization.slug, request.query.filters),
      rateLimits,
    };
  } catch (error) {
    await refundEach(points).catch(() => {});
    throw error;
  }
}
