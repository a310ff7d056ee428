// Issue, rotate, revoke and list organization API keys. The page's actions and the apiKey.*
// procedures both call these, so every rule is here once. Each takes the caller's proven access
// (app/access/organization-access.server.ts). Each change runs in one interactive transaction:
// lock, re-read, check, write, then record the audit event (docs/decisions/0013-audit-recording-core.md).
import type { ApiKeyScope } from "~/access/api-key-scopes";
import type { OrganizationAccess } from "~/access/organization-access.server";
import { recordAs } from "~/audit/record.server";
import { lockOrganization } from "~/access/organization-lock.server";
import { prisma, queryPrepared, type Tx } from "~/db.server";
import { isUniqueViolation } from "~/db-errors.server";
import { Prisma } from "~/generated/prisma/client";
import { DomainError } from "~/lib/domain-error";
import { isUuid } from "~/lib/ids";
import { splitPage } from "~/lib/keyset-cursor.server";
import { MAX_UNREVOKED_KEYS, type ApiKeyState, type IssueKeyInput } from "./schemas";
import { encodeRevokedCursor, cursorOrder, REVOKED_PAGE_SIZE, type RevokedCursor } from "./revoked-cursor";
import { NO_KEY_FILTERS, type KeyFilters } from "./key-filters";
import {
  historyAfterSql,
  historyCursorOrder,
  historyOrderSql,
  keyMatchSql,
  unrevokedOrderSql,
  unrevokedStateSql,
} from "./key-filters-sql.server";
import { generateSecret } from "./secret.server";
import { LEAK_COLUMNS, LEAK_JOIN, reportedLeakOf, reportedLeaksOf, type LeakColumns, type ReportedLeak } from "./leak-reports.server";

/** Access that may manage the organization's keys. */
export type KeyManager = OrganizationAccess<"apiKey:manage">;

/** What lists, pages and procedures show of a key. Never the secret or its hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  state: ApiKeyState;
  createdAt: string;
  /** Resolved from the current user record; null when the user no longer exists. */
  createdBy: { id: string; name: string; deleted: boolean } | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** A secret scanner found the key's current secret in public (decision 0060); null otherwise. */
  reportedLeak: ReportedLeak | null;
}

export interface IssuedKey {
  key: ApiKeyView;
  /** The plaintext secret: returned here once, never stored, never logged. */
  secret: string;
}

const keySelect = {
  id: true,
  name: true,
  prefix: true,
  scopes: true,
  createdAt: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
  createdBy: { select: { id: true, name: true, deletedAt: true } },
} satisfies Prisma.ApiKeySelect;

/** A key row as keySelect reads it (key-by-secret.server.ts reads the same columns in SQL). */
export type KeyRow = Prisma.ApiKeyGetPayload<{ select: typeof keySelect }>;

function keyState(key: { revokedAt: Date | null; expiresAt: Date | null }, now = new Date()): ApiKeyState {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return "expired";
  return "active";
}

export function toView(row: KeyRow, now = new Date(), reportedLeak: ReportedLeak | null = null): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes as ApiKeyScope[],
    state: keyState(row, now),
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy ? { id: row.createdBy.id, name: row.createdBy.name, deleted: row.createdBy.deletedAt !== null } : null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    reportedLeak,
  };
}

type ViewRow = Omit<KeyRow, "createdBy"> & { creatorId: string | null; creatorName: string; creatorDeletedAt: Date | null } & LeakColumns;

/** Keys of the organization with their creator and leak report, in one statement (Prisma would send
 * more for the relations), as a prepared statement: the keys page reads it on every view. */
export async function readKeyViews(organizationId: string, where: Prisma.Sql, order: Prisma.Sql, limit = Prisma.empty) {
  const rows = await queryPrepared<ViewRow>(
    Prisma.sql`
      SELECT k.id::text AS id, k.name, k.prefix, k.scopes, k.created_at AS "createdAt", k.expires_at AS "expiresAt",
             k.last_used_at AS "lastUsedAt", k.revoked_at AS "revokedAt",
             u.id::text AS "creatorId", u.name AS "creatorName", u.deleted_at AS "creatorDeletedAt", ${LEAK_COLUMNS}
      FROM api_keys k LEFT JOIN users u ON u.id = k.created_by_id ${LEAK_JOIN}
      WHERE k.organization_id = ${organizationId}::uuid ${where}
      ORDER BY ${order} ${limit}`,
  );
  return rows.map(({ creatorId, creatorName, creatorDeletedAt, leakReportedAt, leakSource, leakUrl, leakCount, ...row }) => ({
    ...row,
    createdBy: creatorId ? { id: creatorId, name: creatorName, deletedAt: creatorDeletedAt } : null,
    reportedLeak: reportedLeakOf({ leakReportedAt, leakSource, leakUrl, leakCount }),
  }));
}

/**
 * The organization's unrevoked keys (active and expired), newest first or as `filters` sort them,
 * narrowed by `filters` (key-filters.ts): at most 25 by rule, read through the partial index on
 * unrevoked keys, so the cost does not grow with the revoked history.
 */
export async function listUnrevokedKeys(access: KeyManager, filters: KeyFilters = NO_KEY_FILTERS, now = new Date()): Promise<ApiKeyView[]> {
  const where = Prisma.sql`AND k.revoked_at IS NULL ${keyMatchSql(filters)} ${unrevokedStateSql(filters.state, now)}`;
  const rows = await readKeyViews(access.organization.id, where, unrevokedOrderSql(filters.sort));
  return rows.map((row) => toView(row, now, row.reportedLeak));
}

/** A key as apiKey.list gives it: the last revoked key of an answer that has more after it
 * carries where the next page starts (docs/contract.md, apiKey.list). */
export type ListedKey = ApiKeyView & { nextRevokedCursor?: string };

/**
 * apiKey.list: every key in use (unrevoked, at most MAX_UNREVOKED_KEYS, newest first), then one
 * page of the revoked history as the keys page shows it (REVOKED_PAGE_SIZE, newest revocation
 * first, after `revokedCursor`), so the answer stays bounded however many keys were ever revoked.
 * The cursor is the page's own (revoked-cursor.ts): it names no organization, and the read is
 * scoped by the caller's access. `filters` narrow and sort both parts as on the keys page
 * (`state` leaves out the part it excludes); the cursor must be of the sort's order, else a 400.
 */
export async function listKeys(
  access: KeyManager,
  revokedCursor?: RevokedCursor,
  filters: KeyFilters = NO_KEY_FILTERS,
): Promise<ListedKey[]> {
  if (revokedCursor && cursorOrder(revokedCursor) !== historyCursorOrder(filters.sort)) {
    throw new DomainError("BAD_REQUEST", "apiKey.badListCursor");
  }
  const now = new Date();
  const wantsInUse = !revokedCursor && filters.state !== "revoked";
  const wantsRevoked = filters.state === null || filters.state === "revoked";
  // Both reads at once, awaited together: when one fails (the database gone), the other's failure
  // is not left as an unhandled rejection.
  const [inUse, rows] = await Promise.all([
    wantsInUse ? listUnrevokedKeys(access, filters, now) : Promise.resolve([]),
    wantsRevoked
      ? readKeyViews(
          access.organization.id,
          Prisma.sql`AND k.revoked_at IS NOT NULL ${keyMatchSql(filters)} ${historyAfterSql(revokedCursor)}`,
          historyOrderSql(filters.sort),
          Prisma.sql`LIMIT ${REVOKED_PAGE_SIZE + 1}`,
        )
      : Promise.resolve([]),
  ]);
  const { page, lastBeforeMore: last } = splitPage(rows, REVOKED_PAGE_SIZE);
  const revoked: ListedKey[] = page.map((row) => toView(row, now, row.reportedLeak));
  if (last?.revokedAt) {
    revoked[revoked.length - 1]!.nextRevokedCursor = encodeRevokedCursor(
      filters.sort === "lastUsed" ? { lastUsedAt: last.lastUsedAt, id: last.id } : { revokedAt: last.revokedAt, id: last.id },
    );
  }
  return [...inUse, ...revoked];
}

export async function issueKey(access: KeyManager, input: IssueKeyInput): Promise<IssuedKey> {
  const organizationId = access.organization.id;
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw new DomainError("BAD_REQUEST", "apiKey.expiryInPast");
  const { secret, hash, prefix } = generateSecret(organizationId);
  const id = crypto.randomUUID();
  try {
    const key = await prisma.$transaction(async (tx) => {
      // Issuers of one organization queue on its row, so the count below cannot go stale before
      // our insert commits: the limit holds under any concurrency.
      await lockOrganization(tx, organizationId);
      const unrevoked = await tx.apiKey.count({ where: { organizationId, revokedAt: null } });
      if (unrevoked >= MAX_UNREVOKED_KEYS) {
        throw new DomainError("CONFLICT", "apiKey.limitReached", { params: { limit: MAX_UNREVOKED_KEYS } });
      }
      const sameName = await tx.apiKey.findFirst({ where: { organizationId, name: input.name, revokedAt: null }, select: { id: true } });
      if (sameName) throw new DomainError("CONFLICT", "apiKey.nameTaken");
      const created = await tx.apiKey.create({
        data: {
          id,
          organizationId,
          name: input.name,
          scopes: input.scopes,
          secretHash: hash,
          prefix,
          expiresAt,
          createdById: access.user.id,
        },
        select: keySelect,
      });
      await recordAs(access)(tx, {
        action: "api_key.issued",
        target: { type: "api_key", id },
        details: { name: created.name, scopes: input.scopes, expiresAt: expiresAt?.toISOString() ?? null },
      });
      return created;
    });
    return { key: toView(key), secret };
  } catch (error) {
    // The partial unique index is the backstop for the name check above.
    if (isUniqueViolation(error)) throw new DomainError("CONFLICT", "apiKey.nameTaken");
    throw error;
  }
}

/**
 * Locks the organization's row, then its key's, or answers 404 (also for ids that are not UUIDs).
 * The organization first, as every change to it does (lockOrganization): a key change that
 * locked the key first and then, for its audit event, referenced the organization deadlocked with
 * the organization's deletion, which holds the organization and cascades into its keys. Also
 * gives the hash of the key's current secret, for a rotation to forget it.
 */
async function lockKey(tx: Tx, organizationId: string, keyId: string) {
  if (!isUuid(keyId)) throw new DomainError("NOT_FOUND", "apiKey.notFound");
  await lockOrganization(tx, organizationId);
  const rows = await tx.$queryRaw<{ secretHash: Uint8Array<ArrayBuffer> }[]>`
    SELECT secret_hash AS "secretHash" FROM api_keys WHERE id = ${keyId}::uuid AND organization_id = ${organizationId}::uuid FOR UPDATE`;
  if (!rows[0]) throw new DomainError("NOT_FOUND", "apiKey.notFound");
  const current = await tx.apiKey.findUniqueOrThrow({ where: { organizationId_id: { organizationId, id: keyId } }, select: keySelect });
  return { current, secretHash: rows[0].secretHash };
}

/** Replaces the secret of an active key; id, name, scopes and expiry stay. The old secret fails at once. */
export async function rotateKey(access: KeyManager, keyId: string): Promise<IssuedKey> {
  const organizationId = access.organization.id;
  const { secret, hash, prefix } = generateSecret(organizationId);
  const key = await prisma.$transaction(async (tx) => {
    const { current, secretHash } = await lockKey(tx, organizationId, keyId);
    const state = keyState(current);
    if (state === "revoked") throw new DomainError("CONFLICT", "apiKey.revokedCannotRotate");
    // docs/decisions/0012-api-key-expired-and-revoked-transitions.md
    if (state === "expired") throw new DomainError("CONFLICT", "apiKey.expiredCannotRotate");
    // A secret of the older format (52 characters) had a lookup row; the new one names its
    // organization and needs none. Nothing to delete for a key issued since (decision 0048).
    await tx.apiKeyLegacySecret.deleteMany({ where: { secretHash, organizationId } });
    const updated = await tx.apiKey.update({
      where: { organizationId_id: { organizationId, id: current.id } },
      data: { secretHash: hash, prefix },
      select: keySelect,
    });
    await recordAs(access)(tx, {
      action: "api_key.rotated",
      target: { type: "api_key", id: current.id },
      details: { name: current.name, prefix: { from: current.prefix, to: prefix } },
    });
    return updated;
  });
  return { key: toView(key), secret };
}

/** Revokes an active or expired key for good. */
export async function revokeKey(access: KeyManager, keyId: string): Promise<ApiKeyView> {
  const organizationId = access.organization.id;
  const key = await prisma.$transaction(async (tx) => {
    const { current } = await lockKey(tx, organizationId, keyId);
    if (current.revokedAt) throw new DomainError("CONFLICT", "apiKey.alreadyRevoked");
    const updated = await tx.apiKey.update({
      where: { organizationId_id: { organizationId, id: current.id } },
      data: { revokedAt: new Date() },
      select: keySelect,
    });
    // A revoked key keeps its report: the list of revoked keys says the secret had leaked.
    const leak = (await reportedLeaksOf(organizationId, [current.id], tx)).get(current.id) ?? null;
    await recordAs(access)(tx, {
      action: "api_key.revoked",
      target: { type: "api_key", id: current.id },
      details: { name: current.name },
    });
    return { updated, leak };
  });
  return toView(key.updated, new Date(), key.leak);
}
