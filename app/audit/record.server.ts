// recordAuditEvent: the one way to write an audit row. It runs inside the caller's interactive
// transaction, after the caller has locked, re-read and changed the resource, so the event
// commits or rolls back with the change (docs/product-rules.md, Recording rules 1-2). A change a
// signed-in user makes records through recordAs(access), which fills in their organization and
// them as the actor; system actors (the payment provider, account deletion) name themselves.
import { createHash } from "node:crypto";
import { v7 as uuidv7 } from "uuid";
import type { OrganizationAccess } from "~/access/organization-access.server";
import type { Tx } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import {
  auditCatalog,
  isAuditAction,
  ACTOR_KINDS,
  type ActorKind,
  type AuditAction,
  type AuditDetails,
  type AuditTargetType,
} from "./catalog";
import { isSafeCorrelationId } from "~/lib/correlation-id";
import { canonicalJson } from "~/lib/canonical-json";
import { insertEventWithRollups, type EventRow } from "./rollups.server";
import { currentCorrelationId, noteRecordedChange } from "~/lib/request-scope.server";

/** The typed recording input, derived from the catalog: a wrong payload does not compile. */
export type AuditEventInput = {
  [A in AuditAction]: {
    organizationId: string;
    action: A;
    actor: { kind: ActorKind; id: string };
    target: { type: AuditTargetType<A>; id: string };
    details: AuditDetails<A>;
    /** Deduplicates retries of one operation; scoped to the organization. */
    idempotencyKey?: string;
    /** Unset: the ambient request's (or job's) id (ambientCorrelationId). */
    correlationId?: string;
  };
}[AuditAction];

/** The actor of a change a signed-in user made. */
export function userActor(user: { id: string }): { kind: "user"; id: string } {
  return { kind: "user", id: user.id };
}

/** Each action's input without the organization and the actor (distributed over the actions, so
 * each keeps its own target and details). */
type WithoutScope<E> = E extends unknown ? Omit<E, "organizationId" | "actor"> : never;

/** An event as the holder of an access value records it: the organization and the actor are the access's. */
export type AuditEventOfAccess = WithoutScope<AuditEventInput>;

/**
 * The recorder of the user who passed an organization check: their events land in the organization
 * they were checked for, with them as the actor, so neither can be mistyped or taken from the
 * request. The payload is typed from the catalog as for recordAuditEvent.
 */
export function recordAs(access: OrganizationAccess) {
  return (tx: Tx, event: AuditEventOfAccess): Promise<RecordedAuditEvent> =>
    recordAuditEvent(tx, { ...event, organizationId: access.organization.id, actor: userActor(access.user) });
}

/** A programming error (wrong payload reaching runtime despite the types): a 500, never a user error. */
export class InvalidAuditEventError extends Error {
  constructor(reason: string) {
    super(`Invalid audit event: ${reason}`);
    this.name = "InvalidAuditEventError";
  }
}

const ID_PATTERN = /^[A-Za-z0-9._:@-]{1,128}$/;
const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._:/@-]{1,200}$/;

/**
 * The hash an event's contents are compared by when an idempotency key comes again. The
 * correlation id is not part of the contents: a retry of one operation may come from a different
 * request, and must still count as the same event.
 */
export function auditContentHash(contents: {
  action: string;
  actor: { kind: string; id: string };
  target: { type: string; id: string };
  details: object;
}): string {
  return createHash("sha256").update(canonicalJson(contents)).digest("hex");
}

export interface RecordedAuditEvent {
  id: string;
  /** False when an event with the same idempotency key and contents already existed. */
  recorded: boolean;
}

/** The request's id (or the job's) the event was recorded in: the request edge and the worker set it
 * (app/lib/request-scope.server.ts); null outside both (scripts, the demo seed). Both only ever set
 * safe ids; one that is not is left out rather than refusing the change. */
function ambientCorrelationId(): string | null {
  const ambient = currentCorrelationId();
  return ambient !== undefined && isSafeCorrelationId(ambient) ? ambient : null;
}

export async function recordAuditEvent(tx: Tx, input: AuditEventInput): Promise<RecordedAuditEvent> {
  // The request's answer then carries the read-your-writes cookie (app/lib/read-routing.server.ts).
  noteRecordedChange();
  const untyped = input as { action: unknown; actor?: { kind?: unknown; id?: unknown }; target?: { type?: unknown; id?: unknown } };
  if (!isAuditAction(untyped.action)) throw new InvalidAuditEventError(`unknown action ${String(untyped.action)}`);
  const entry = auditCatalog[input.action];
  if (!ACTOR_KINDS.includes(untyped.actor?.kind as ActorKind)) throw new InvalidAuditEventError("unknown actor kind");
  if (typeof untyped.actor?.id !== "string" || !ID_PATTERN.test(untyped.actor.id)) throw new InvalidAuditEventError("bad actor id");
  if (untyped.target?.type !== entry.targetType) throw new InvalidAuditEventError(`target type must be ${entry.targetType}`);
  if (typeof untyped.target?.id !== "string" || !ID_PATTERN.test(untyped.target.id)) throw new InvalidAuditEventError("bad target id");
  const parsed = entry.details.safeParse(input.details);
  if (!parsed.success)
    throw new InvalidAuditEventError(`details do not match ${input.action}: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  if (input.idempotencyKey !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(input.idempotencyKey)) {
    throw new InvalidAuditEventError("bad idempotency key");
  }
  if (input.correlationId !== undefined && !isSafeCorrelationId(input.correlationId)) {
    throw new DomainError("BAD_REQUEST", "audit.unsafeCorrelationId");
  }

  const details = parsed.data as object;
  const contentHash = auditContentHash({ action: input.action, actor: input.actor, target: input.target, details });
  const row: EventRow = {
    id: uuidv7(),
    organizationId: input.organizationId,
    action: input.action,
    actorKind: input.actor.kind,
    actorId: input.actor.id,
    targetType: input.target.type,
    targetId: input.target.id,
    details,
    idempotencyKey: input.idempotencyKey ?? null,
    correlationId: input.correlationId ?? ambientCorrelationId(),
    contentHash,
  };

  // The event and its rollups in one statement (app/audit/rollups.server.ts).
  const [inserted] = await tx.$queryRaw<{ recorded: number }[]>(insertEventWithRollups(row));
  if (inserted?.recorded === 1) return { id: row.id, recorded: true };
  if (input.idempotencyKey === undefined) throw new Error("audit event not inserted without an idempotency key");
  const existing = await tx.auditEvent.findUnique({
    where: { organizationId_idempotencyKey: { organizationId: input.organizationId, idempotencyKey: input.idempotencyKey } },
    select: { id: true, contentHash: true },
  });
  if (existing && existing.contentHash === contentHash) return { id: existing.id, recorded: false };
  throw new DomainError("CONFLICT", "audit.idempotencyKeyReused");
}
