// Which organization each payment provider event was applied to (decision 0050). A provider's
// event id is unique across organizations; that uniqueness lives in the billing_provider_event_ids
// lookup (a Citus reference table) keyed by (provider, event id), while the event's own row stays
// with its organization. The two are written in the same transaction, and the lookup rows of an
// organization go when it is deleted (app/organizations/organization-lookups.server.ts).
import type { Tx } from "~/db.server";

export interface ProviderEventKey {
  provider: string;
  eventId: string;
}

/** The organization an event id was applied to and, when it is `organizationId`'s, its type. */
export async function appliedProviderEvent(
  tx: Tx,
  key: ProviderEventKey,
  organizationId: string,
): Promise<{ organizationId: string; type: string | null } | null> {
  const seen = await tx.billingProviderEventId.findUnique({ where: { provider_eventId: key }, select: { organizationId: true } });
  if (!seen) return appliedWithoutLookup(tx, key, organizationId);
  if (seen.organizationId !== organizationId) return { organizationId: seen.organizationId, type: null };
  const row = await tx.billingProviderEvent.findUnique({
    where: { organizationId_provider_eventId: { organizationId, ...key } },
    select: { type: true },
  });
  return { organizationId, type: row?.type ?? null };
}

/**
 * An event the release before applied during a rolling upgrade has its row but no lookup row: found
 * on the organization's own rows, it gets its lookup row now and counts as applied, so a repeated
 * delivery changes nothing instead of failing on the row's key.
 */
async function appliedWithoutLookup(tx: Tx, key: ProviderEventKey, organizationId: string) {
  const row = await tx.billingProviderEvent.findUnique({
    where: { organizationId_provider_eventId: { organizationId, ...key } },
    select: { type: true },
  });
  if (!row) return null;
  await tx.billingProviderEventId.createMany({ data: [{ ...key, organizationId }], skipDuplicates: true });
  return { organizationId, type: row.type };
}

/**
 * Stores an event as applied to the organization. False when its id was taken meanwhile (by a
 * transaction of another organization, which holds another organization's lock: only the
 * lookup's key can tell), and then nothing is stored.
 */
export async function storeProviderEvent(
  tx: Tx,
  key: ProviderEventKey,
  event: { organizationId: string; type: string; outcome: string },
): Promise<boolean> {
  const { count } = await tx.billingProviderEventId.createMany({
    data: [{ ...key, organizationId: event.organizationId }],
    skipDuplicates: true,
  });
  if (count === 0) return false;
  await tx.billingProviderEvent.create({ data: { ...key, ...event }, select: { eventId: true } });
  return true;
}
