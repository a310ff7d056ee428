// A key's "reported leaked" state as the key views carry it: a secret scanner's report of the
// secret the key has now (app/secret-scanning/ records them; docs/decisions/0060-secret-scanning-reports.md).
// Joined on the key's current secret hash, so a key rotated since its report shows none: the
// leaked secret fails already. Read with the key lists in the same statement (LEAK_JOIN), or for a
// page of keys Prisma read, in one more statement (reportedLeaksOf), never one per key.
import { Prisma } from "~/generated/prisma/client";
import { prisma, type Tx } from "~/db.server";

/** Where and when a key's secret was found in public (its first report), and how often it was reported. */
export interface ReportedLeak {
  reportedAt: string;
  /** GitHub's source kind: content, commit, issue_comment, ... */
  source: string;
  /** The public URL of the match; may be empty. */
  url: string;
  count: number;
}

/** The report's columns for a statement that joins LEAK_JOIN onto `api_keys k`. */
export const LEAK_COLUMNS = Prisma.sql`lr.first_reported_at AS "leakReportedAt", lr.source AS "leakSource", lr.url AS "leakUrl", lr.report_count AS "leakCount"`;

export const LEAK_JOIN = Prisma.sql`LEFT JOIN api_key_leak_reports lr
  ON lr.organization_id = k.organization_id AND lr.api_key_id = k.id AND lr.secret_hash = k.secret_hash`;

export interface LeakColumns {
  leakReportedAt: Date | null;
  leakSource: string | null;
  leakUrl: string | null;
  leakCount: number | null;
}

/** The report of a row read with LEAK_COLUMNS, or null. */
export function reportedLeakOf(row: LeakColumns): ReportedLeak | null {
  if (!row.leakReportedAt) return null;
  return { reportedAt: row.leakReportedAt.toISOString(), source: row.leakSource ?? "", url: row.leakUrl ?? "", count: row.leakCount ?? 1 };
}

/** The reports of some keys of one organization, in one statement (keyed by key id). */
export async function reportedLeaksOf(
  organizationId: string,
  keyIds: readonly string[],
  tx: Tx = prisma,
): Promise<Map<string, ReportedLeak>> {
  if (keyIds.length === 0) return new Map();
  const rows = await tx.$queryRaw<(LeakColumns & { id: string })[]>`
    SELECT k.id::text AS id, ${LEAK_COLUMNS}
    FROM api_keys k JOIN api_key_leak_reports lr
      ON lr.organization_id = k.organization_id AND lr.api_key_id = k.id AND lr.secret_hash = k.secret_hash
    WHERE k.organization_id = ${organizationId}::uuid AND k.id = ANY(${keyIds}::uuid[])`;
  return new Map(rows.flatMap((row) => (reportedLeakOf(row) ? [[row.id, reportedLeakOf(row)!] as const] : [])));
}
