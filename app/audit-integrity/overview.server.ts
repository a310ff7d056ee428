// What the integrity page shows before any verification: whether digests are written (a key is
// configured), the trusted keys' ids, and the organization's newest digest. One indexed read.
import { pool } from "~/db.server";
import { configuredKeys } from "./signing-keys";

export interface IntegrityOverview {
  keys: { id: string; status: "current" | "retired" }[];
  /** Whether new digests are written: a current signing key is configured. */
  signing: boolean;
  digestCount: number;
  newest: { sequence: number; periodEnd: string; eventCount: number } | null;
}

export async function integrityOverview(organizationId: string): Promise<IntegrityOverview> {
  const keys = configuredKeys().map(({ id, status }) => ({ id, status }));
  const { rows } = await pool().query<{ sequence: number; period_end: Date; event_count: number }>(
    "SELECT sequence, period_end, event_count FROM audit_digests WHERE organization_id = $1 ORDER BY sequence DESC LIMIT 1",
    [organizationId],
  );
  const newest = rows[0];
  return {
    keys,
    signing: keys.some((key) => key.status === "current"),
    // The digests are numbered from 1 without gaps: the newest's number is their count.
    digestCount: newest?.sequence ?? 0,
    newest: newest ? { sequence: newest.sequence, periodEnd: newest.period_end.toISOString(), eventCount: newest.event_count } : null,
  };
}
