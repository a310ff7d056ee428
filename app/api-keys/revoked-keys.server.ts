// The keys page's "Revoked keys" history: one keyset page at a time, newest revocation first,
// ordered by (revoked_at, id) and read through api_keys_organization_id_revoked_at_id_idx, so a
// page costs the same with 20 revoked keys or 20,000; sorted by last use (`sort=lastUsed`), by
// (last use or never, id) through api_keys_revoked_last_used_idx. The page's filters narrow it
// (key-filters-sql.server.ts). Who revoked a key is not stored on the key:
// it is the user actor of the key's api_key.revoked event (recorded in the same transaction as
// the revocation), and the name is that user's current one, read with the page in one statement.
import { uuidOrNull } from "~/db.server";
import { readPrepared } from "~/lib/read-routing.server";
import { splitPage } from "~/lib/keyset-cursor.server";
import { Prisma } from "~/generated/prisma/client";
import type { KeyManager } from "./api-keys.server";
import { LEAK_COLUMNS, LEAK_JOIN, reportedLeakOf, type LeakColumns, type ReportedLeak } from "./leak-reports.server";
import { NO_KEY_FILTERS, type KeyFilters } from "./key-filters";
import { historyAfterSql, historyOrderSql, keyMatchSql } from "./key-filters-sql.server";
import { encodeRevokedCursor, REVOKED_PAGE_SIZE, type RevokedCursor } from "./revoked-cursor";

/** Who revoked a key, as the page shows it. */
export type Revoker =
  | { kind: "user"; name: string }
  /** The user's account is gone (or deleted): the page says "deleted user", never an id. */
  | { kind: "deletedUser" }
  /** No revocation event names a user (e.g. keys revoked outside the app). */
  | { kind: "unknown" };

export interface RevokedKeyView {
  id: string;
  name: string;
  prefix: string;
  revokedAt: string;
  revokedBy: Revoker;
  /** The secret was reported leaked before the key was revoked (decision 0060). */
  reportedLeak: ReportedLeak | null;
  lastUsedAt: string | null;
}

export interface RevokedKeysPage {
  keys: RevokedKeyView[];
  /** The cursor of the next (older) page; null on the last page. */
  nextCursor: string | null;
}

interface Row extends LeakColumns {
  id: string;
  name: string;
  prefix: string;
  revokedAt: Date;
  lastUsedAt: Date | null;
  actorKind: string | null;
  revokerId: string | null;
  revokerName: string | null;
  revokerDeletedAt: Date | null;
}

function revoker(row: Row): Revoker {
  if (row.actorKind !== "user") return { kind: "unknown" };
  if (row.revokerId === null || row.revokerName === null || row.revokerDeletedAt !== null) return { kind: "deletedUser" };
  return { kind: "user", name: row.revokerName };
}

/**
 * One page of the organization's revoked keys that `filters` let through, newest revocation first
 * (or by last use), after `cursor` (of that order: the caller checks). One SQL
 * statement: the page's keys (a LIMIT on the index), each key's api_key.revoked event and its
 * actor's current name. Each key's event is looked up within an hour of its revocation: both are
 * written in one transaction (the event takes the database's transaction time, the key the app's
 * clock; the hour absorbs lock waits and clock differences), so the lookup stays inside a small
 * range of an audit_events index (by target, or else by action and time) instead of reading the
 * organization's whole history.
 */
export async function listRevokedKeys(
  access: KeyManager,
  cursor?: RevokedCursor,
  filters: KeyFilters = NO_KEY_FILTERS,
  limit = REVOKED_PAGE_SIZE,
): Promise<RevokedKeysPage> {
  const organizationId = access.organization.id;
  const byLastUse = filters.sort === "lastUsed";
  const rows = await readPrepared<Row>(Prisma.sql`
    SELECT k.id::text AS id, k.name, k.prefix, k.revoked_at AS "revokedAt", k.last_used_at AS "lastUsedAt",
           e.actor_kind::text AS "actorKind", u.id::text AS "revokerId", u.name AS "revokerName", u.deleted_at AS "revokerDeletedAt",
           ${LEAK_COLUMNS}
    FROM (
      SELECT k.organization_id, k.id, k.name, k.prefix, k.revoked_at, k.last_used_at, k.secret_hash FROM api_keys k
      WHERE k.organization_id = ${organizationId}::uuid AND k.revoked_at IS NOT NULL ${keyMatchSql(filters)} ${historyAfterSql(cursor)}
      ORDER BY ${historyOrderSql(filters.sort)}
      LIMIT ${Prisma.raw(String(Math.trunc(limit) + 1))}
    ) k
    ${LEAK_JOIN}
    LEFT JOIN LATERAL (
      SELECT actor_kind, actor_id FROM audit_events
      WHERE organization_id = ${organizationId}::uuid
        AND action = 'api_key.revoked'
        AND target_id = k.id::text
        AND created_at BETWEEN k.revoked_at - interval '1 hour' AND k.revoked_at + interval '1 hour'
      ORDER BY created_at DESC, id DESC
      LIMIT 1
    ) e ON true
    LEFT JOIN LATERAL (
      SELECT id, name, deleted_at FROM users
      WHERE e.actor_kind = 'user'
        -- Actor ids are text; only a UUID can name a user.
        AND id = ${Prisma.raw(uuidOrNull("e.actor_id"))}
    ) u ON true
    ORDER BY ${historyOrderSql(filters.sort)}`);
  const { page, lastBeforeMore: last } = splitPage(rows, limit);
  return {
    keys: page.map((row) => ({
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      revokedAt: row.revokedAt.toISOString(),
      revokedBy: revoker(row),
      reportedLeak: reportedLeakOf(row),
      lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    })),
    nextCursor: last
      ? encodeRevokedCursor(byLastUse ? { lastUsedAt: last.lastUsedAt, id: last.id } : { revokedAt: last.revokedAt, id: last.id })
      : null,
  };
}
