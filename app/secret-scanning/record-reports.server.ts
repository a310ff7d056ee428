// Marks the matched keys "reported leaked" and decides, atomically, who is told. One transaction
// for the whole payload (a failure writes nothing; GitHub sends the report again): the matched
// organizations are locked in id order (as every change of several does, so two reports wait for
// each other instead of deadlocking), their keys re-read under the locks, and one statement
// inserts or counts every report. A key's first report of its current secret inserts the row (or
// replaces the report of a secret rotated away since): only then is the audit event recorded and,
// for an active key, a mail queued to each owner and admin; a replayed or re-signed report finds
// the row, counts itself, and tells nobody (docs/decisions/0060-secret-scanning-reports.md).
import { randomUUID } from "node:crypto";
import { lockExistingOrganizations } from "~/access/organization-lock.server";
import { recordAuditEvent } from "~/audit/record.server";
import { prisma, type Tx } from "~/db.server";
import { enqueueJob } from "~/jobs/queue.server";
import { storedStrings, type ReportedMatch } from "./report-format";
import type { MatchedKey } from "./match-tokens.server";
import { LEAK_MAIL_TASK } from "./leak-mail.server";

/** Who records a report in the audit log: GitHub's scanner, through this endpoint. */
export const SECRET_SCANNING_ACTOR = { kind: "system", id: "github-secret-scanning" } as const;

interface KeyNow {
  organizationId: string;
  keyId: string;
  name: string;
  prefix: string;
  hash: string;
  active: boolean;
}

/** The matched keys as they are under the locks: a key rotated since the match is left out (its
 * reported secret no longer works; the report would describe a secret it does not have). */
async function keysUnderLock(tx: Tx, matched: readonly MatchedKey[]): Promise<KeyNow[]> {
  const organizations = [...new Set(matched.map((m) => m.organizationId))].sort();
  await lockExistingOrganizations(tx, organizations);
  const rows = await tx.$queryRaw<KeyNow[]>`
    SELECT organization_id::text AS "organizationId", id::text AS "keyId", name, prefix, encode(secret_hash, 'hex') AS hash,
           (revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())) AS active
    FROM api_keys
    WHERE organization_id = ANY(${organizations}::uuid[]) AND id = ANY(${matched.map((m) => m.keyId)}::uuid[])`;
  const reported = new Set(matched.map((m) => `${m.organizationId}:${m.keyId}:${m.hash}`));
  return rows.filter((row) => reported.has(`${row.organizationId}:${row.keyId}:${row.hash}`));
}

interface FreshReport {
  key: KeyNow;
  reportId: string;
  found: ReturnType<typeof storedStrings>;
}

/** Inserts each key's report or counts a repeat; the reports this statement created (or replaced). */
async function upsertReports(tx: Tx, keys: readonly KeyNow[], whereFound: (key: KeyNow) => ReportedMatch): Promise<FreshReport[]> {
  const ids = keys.map(() => randomUUID());
  const found = keys.map((key) => storedStrings(whereFound(key)));
  const rows = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO api_key_leak_reports (organization_id, api_key_id, id, secret_hash, token_type, source, url)
    SELECT t.organization_id, t.api_key_id, t.id, decode(t.hash, 'hex'), t.token_type, t.source, t.url
    FROM unnest(${keys.map((k) => k.organizationId)}::uuid[], ${keys.map((k) => k.keyId)}::uuid[], ${ids}::uuid[],
                ${keys.map((k) => k.hash)}::text[], ${found.map((f) => f.type)}::text[],
                ${found.map((f) => f.source)}::text[], ${found.map((f) => f.url)}::text[])
         AS t(organization_id, api_key_id, id, hash, token_type, source, url)
    ON CONFLICT (organization_id, api_key_id) DO UPDATE SET
      -- The same secret again: one more report. Another secret (the key was rotated, and its new
      -- secret leaked too): a new report, which tells the owners again.
      report_count = CASE WHEN api_key_leak_reports.secret_hash = excluded.secret_hash THEN api_key_leak_reports.report_count + 1 ELSE 1 END,
      id = CASE WHEN api_key_leak_reports.secret_hash = excluded.secret_hash THEN api_key_leak_reports.id ELSE excluded.id END,
      token_type = CASE WHEN api_key_leak_reports.secret_hash = excluded.secret_hash THEN api_key_leak_reports.token_type ELSE excluded.token_type END,
      source = CASE WHEN api_key_leak_reports.secret_hash = excluded.secret_hash THEN api_key_leak_reports.source ELSE excluded.source END,
      url = CASE WHEN api_key_leak_reports.secret_hash = excluded.secret_hash THEN api_key_leak_reports.url ELSE excluded.url END,
      first_reported_at = CASE WHEN api_key_leak_reports.secret_hash = excluded.secret_hash THEN api_key_leak_reports.first_reported_at ELSE now() END,
      last_reported_at = now(),
      secret_hash = excluded.secret_hash
    RETURNING id::text AS id`;
  const kept = new Set(rows.map((row) => row.id));
  // A row that carries the id this statement chose for it was inserted or replaced by it.
  return keys.flatMap((key, index) => (kept.has(ids[index]!) ? [{ key, reportId: ids[index]!, found: found[index]! }] : []));
}

/** Owners and admins of each organization: the people a leak concerns. */
async function recipientsOf(tx: Tx, organizationIds: readonly string[]): Promise<Map<string, string[]>> {
  const rows = await tx.$queryRaw<{ organizationId: string; userId: string }[]>`
    SELECT m.organization_id::text AS "organizationId", m.user_id::text AS "userId"
    FROM memberships m JOIN users u ON u.id = m.user_id AND u.deleted_at IS NULL
    WHERE m.organization_id = ANY(${organizationIds}::uuid[]) AND m.role IN ('owner', 'admin')`;
  const byOrganization = new Map<string, string[]>();
  for (const row of rows) byOrganization.set(row.organizationId, [...(byOrganization.get(row.organizationId) ?? []), row.userId]);
  return byOrganization;
}

/** Records the reports of `matched` (found in `matches`, the payload); the keys newly reported. */
export async function recordReports(matched: readonly MatchedKey[], matches: readonly ReportedMatch[]): Promise<number> {
  if (matched.length === 0) return 0;
  // Where a key was found: its first match in the payload (stored as storedStrings keeps it: the
  // report row, its audit event and its mail say the same).
  const firstMatch = new Map(matched.map((m) => [`${m.organizationId}:${m.keyId}`, matches[Math.min(...m.positions)]!]));
  return prisma.$transaction(async (tx) => {
    const keys = await keysUnderLock(tx, matched);
    if (keys.length === 0) return 0;
    const fresh = await upsertReports(tx, keys, (key) => firstMatch.get(`${key.organizationId}:${key.keyId}`)!);
    if (fresh.length === 0) return 0;
    const recipients = await recipientsOf(tx, [...new Set(fresh.filter((r) => r.key.active).map((r) => r.key.organizationId))]);
    for (const { key, reportId, found } of fresh) {
      await recordAuditEvent(tx, {
        organizationId: key.organizationId,
        action: "api_key.reported_leaked",
        actor: SECRET_SCANNING_ACTOR,
        target: { type: "api_key", id: key.keyId },
        details: {
          name: key.name,
          prefix: key.prefix,
          source: found.source,
          url: found.url,
        },
      });
      // A revoked or expired key's secret already fails: there is nothing for anyone to do, so no mail.
      if (!key.active) continue;
      for (const userId of recipients.get(key.organizationId) ?? []) {
        await enqueueJob(tx, LEAK_MAIL_TASK, { organizationId: key.organizationId, apiKeyId: key.keyId, reportId, userId });
      }
    }
    return fresh.length;
  });
}
