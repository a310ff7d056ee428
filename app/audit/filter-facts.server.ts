// What the audit page's filter values name, so that the filters can tell the truth about them
// (docs/decisions/0032-audit-filters-and-export-page.md): an action the catalog does not know, an
// actor or a target that no event of this organization has, is named on the page with a link to
// drop it, instead of "No events" under controls that read "All actions". A value the URL applies
// is also always one of the controls' choices (an actor past the list's first 500 included).
// Beside the actor list, at most two lookups (a primary key, an index), only for filters the URL sets.
import type { AuditReader } from "~/access/organization-access.server";
import { uuidOrNull } from "~/db.server";
import { readPrepared } from "~/lib/read-routing.server";
import { Prisma } from "~/generated/prisma/client";
import type { AuditFilters } from "./audit-query";
import { isAuditAction } from "./catalog";
import { listAuditActors, NAMED_COLUMNS, nameJoins, type AuditActor } from "./query.server";

/** The filters whose values name nothing: shown as "Unknown action: nope" with a link to drop each. */
export type UnknownFilters = Partial<Record<"action" | "actorId" | "targetId", string>>;

export interface AuditTargetFilter {
  id: string;
  /** Null when no event of this organization has this target. */
  type: string | null;
  /** Today's name; null when the record is gone (or was never there). */
  name: string | null;
}

export interface AuditFilterFacts {
  /** The actors for the filter's choices, with the filter's own actor in them when it is a real one. */
  actors: AuditActor[];
  target: AuditTargetFilter | null;
  unknown: UnknownFilters;
}

/** The newest event of this target, for its type and today's name (index on organization, target). */
async function findTarget(reader: AuditReader, targetId: string): Promise<AuditTargetFilter> {
  const [row] = await readPrepared<{ targetType: string; targetName: string | null }>(Prisma.sql`
    SELECT ${NAMED_COLUMNS}
    FROM (
      SELECT *, NULL::uuid AS actor_uuid, ${Prisma.raw(uuidOrNull("target_id"))} AS target_uuid
      FROM audit_events
      WHERE organization_id = ${reader.organization.id}::uuid AND target_id = ${targetId}
      ORDER BY created_at DESC, id DESC LIMIT 1
    ) e
    ${nameJoins("e.actor_uuid", "e.target_uuid")}`);
  return { id: targetId, type: row?.targetType ?? null, name: row?.targetName ?? null };
}

/** The filter's choices and what its values name; run beside the page's own reads. */
export async function auditFilterFacts(reader: AuditReader, filters: AuditFilters): Promise<AuditFilterFacts> {
  const { action, actorId, targetId } = filters;
  const [actors, chosenActor, target] = await Promise.all([
    listAuditActors(reader),
    actorId ? listAuditActors(reader, actorId) : Promise.resolve([]),
    targetId ? findTarget(reader, targetId) : Promise.resolve(null),
  ]);
  const unknown: UnknownFilters = {};
  if (action && !isAuditAction(action)) unknown.action = action;
  if (actorId && chosenActor.length === 0) unknown.actorId = actorId;
  if (targetId && target?.type === null) unknown.targetId = targetId;
  const missing = chosenActor.filter((a) => !actors.some((known) => known.id === a.id));
  return { actors: [...actors, ...missing], target: target && target.type !== null ? target : null, unknown };
}
