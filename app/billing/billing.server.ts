// An organization's plan and billing state, and every change to them (docs/decisions/0029-billing.md).
// Each change locks the organization's row, re-reads plan and state, decides under the lock,
// writes, and records its audit event in the same transaction; a refused change (409) writes
// nothing. Owners change the plan (checkout), cancel and resume; the payment provider's events
// move the state (payment_failed, payment_recovered) or take the paid plan back (refund, dispute).
import type { OrganizationAccess } from "~/access/organization-access.server";
import type { AuditDetails } from "~/audit/catalog";
import { recordAs, recordAuditEvent } from "~/audit/record.server";
import { lockOrganization } from "~/access/organization-lock.server";
import { prisma, type Tx } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import type { ErrorKey } from "~/lib/error-key";
import { isUuid } from "~/lib/ids";
import type { BillingState } from "~/generated/prisma/enums";
import {
  DEFAULT_PLAN,
  isPaidPlan,
  isPlanId,
  planFeatures,
  planName,
  storedPlanId,
  type PlanFlags,
  type StoredPlanId,
} from "~/plans/catalog";
import {
  billingSetup,
  providerEventSchema,
  verifyEventBody,
  type BillingProvider,
  type BillingSetup,
  type EventRefusal,
  type ProviderEvent,
} from "./provider.server";
import { appliedProviderEvent, storeProviderEvent } from "./provider-event-ids.server";

/** What billing.get and every billing procedure answer. */
export interface BillingStatus {
  planId: StoredPlanId;
  state: BillingState;
  /** The plan's flags as the catalog declares them now (whether the state pauses them is `state`'s to say). */
  features: PlanFlags;
}

interface Billing {
  planId: StoredPlanId;
  state: BillingState;
}

function statusOf(billing: Billing): BillingStatus {
  return { planId: billing.planId, state: billing.state, features: planFeatures(billing.planId) };
}

function billingOf(row: { planId: string; billingState: BillingState }): Billing {
  return { planId: storedPlanId(row.planId), state: row.billingState };
}

/** The organization's billing, as the access check loaded it (no second query). */
export function getBilling(access: OrganizationAccess<"billing:view">): BillingStatus {
  return statusOf(billingOf(access.organization));
}

async function lockBilling(tx: Tx, organizationId: string): Promise<Billing> {
  await lockOrganization(tx, organizationId);
  return billingOf(
    await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { planId: true, billingState: true } }),
  );
}

async function writeBilling(tx: Tx, organizationId: string, next: Billing): Promise<void> {
  await tx.organization.update({
    where: { id: organizationId },
    data: { planId: next.planId, billingState: next.state },
    select: { id: true },
  });
}

function providerOf(setup: BillingSetup): BillingProvider {
  if (!setup.provider) throw new DomainError("CONFLICT", "billing.notConfigured");
  return setup.provider;
}

/** The state's change as event details, only when it changed. */
function stateChange(from: BillingState, to: BillingState) {
  return from === to ? {} : { state: { from, to } };
}

type UserChange = "checkout" | "cancel" | "resume";

/**
 * Why an owner's change does not apply to the billing as it stands, or null when it does: the one
 * rule for the change itself and for the page that offers it (its confirm view).
 */
export function ownerChangeRefusal(current: Billing, kind: UserChange, planId?: string): DomainError | null {
  if (kind === "checkout") {
    if (!isPlanId(planId)) return new DomainError("BAD_REQUEST", "billing.unknownPlan");
    if (current.planId === planId) return new DomainError("CONFLICT", "billing.alreadyOnPlan", { params: { plan: planName(planId) } });
    return null;
  }
  if (kind === "cancel") {
    if (!isPaidPlan(current.planId)) return new DomainError("CONFLICT", "billing.nothingToCancel");
    if (current.state === "canceled") return new DomainError("CONFLICT", "billing.alreadyCanceled");
    return null;
  }
  return current.state === "canceled" ? null : new DomainError("CONFLICT", "billing.notCanceled");
}

/** Owners' changes: one transaction, the provider asked under the lock (so two requests cannot
 * both act on the same previous state), then the write and its event. */
async function changeAsOwner(
  access: OrganizationAccess<"billing:manage">,
  setup: BillingSetup,
  kind: UserChange,
  planId?: string,
): Promise<BillingStatus> {
  const provider = providerOf(setup);
  const organizationId = access.organization.id;
  const recordAsOwner = recordAs(access);
  const target = { type: "organization" as const, id: organizationId };
  return prisma.$transaction(async (tx) => {
    const current = await lockBilling(tx, organizationId);
    /** Writes the new billing and its event, the owner as actor. */
    const commit = async (next: Billing, event: OwnerEvent) => {
      await writeBilling(tx, organizationId, next);
      await recordAsOwner(tx, { target, ...event });
      return statusOf(next);
    };
    const refusal = ownerChangeRefusal(current, kind, planId);
    if (refusal) throw refusal;
    if (kind === "checkout" && isPlanId(planId)) {
      await provider.startCheckout({ organizationId, planId });
      const next: Billing = { planId, state: "active" };
      return commit(next, {
        action: "billing.plan_changed",
        details: { plan: { from: current.planId, to: planId }, ...stateChange(current.state, next.state) },
      });
    }
    if (kind === "cancel") {
      await provider.cancel({ organizationId });
      const next: Billing = { planId: current.planId, state: "canceled" };
      return commit(next, {
        action: "billing.canceled",
        details: { plan: current.planId, state: { from: current.state, to: next.state } },
      });
    }
    await provider.resume({ organizationId });
    const next: Billing = { planId: current.planId, state: "active" };
    return commit(next, { action: "billing.resumed", details: { plan: current.planId, state: { from: current.state, to: next.state } } });
  });
}

type OwnerEvent = {
  [A in "billing.plan_changed" | "billing.canceled" | "billing.resumed"]: { action: A; details: AuditDetails<A> };
}["billing.plan_changed" | "billing.canceled" | "billing.resumed"];

/** Changes the plan; the development provider completes at once and the state is `active`. */
export function checkout(access: OrganizationAccess<"billing:manage">, planId: string, setup = billingSetup()) {
  return changeAsOwner(access, setup, "checkout", planId);
}

/** Stops the paid plan: `canceled`, which pauses paid features until resumed. */
export function cancelSubscription(access: OrganizationAccess<"billing:manage">, setup = billingSetup()) {
  return changeAsOwner(access, setup, "cancel");
}

/** A canceled plan renews again: `active`. */
export function resumeSubscription(access: OrganizationAccess<"billing:manage">, setup = billingSetup()) {
  return changeAsOwner(access, setup, "resume");
}

// ---- provider events ------------------------------------------------------------------------

/** The actor of changes the payment provider's events make. */
export const BILLING_PROVIDER_ACTOR = { kind: "system", id: "billing-provider" } as const;

export type EventOutcome = "applied" | "unchanged" | "already_processed";

const REFUSAL_MESSAGES: Record<EventRefusal, ErrorKey> = {
  unsigned: "billing.eventUnsigned",
  badSignature: "billing.eventBadSignature",
  expiredSignature: "billing.eventExpiredSignature",
  notConfigured: "billing.eventsNotConfigured",
};

/**
 * Reads a delivery: signature (401), JSON (400), shape and type (400), organization (404). The
 * first issue's message is ours when it is one of our keys; nothing of the body is echoed.
 */
export function parseProviderEvent(setup: BillingSetup, headers: Headers, body: string, now = Date.now()): ProviderEvent {
  const verified = verifyEventBody(setup, headers, body, now);
  if (!verified.ok) throw new DomainError("UNAUTHORIZED", REFUSAL_MESSAGES[verified.refusal]);
  let json: unknown;
  try {
    json = JSON.parse(verified.body);
  } catch {
    throw new DomainError("BAD_REQUEST", "invalidJson");
  }
  const parsed = providerEventSchema.safeParse(json);
  if (!parsed.success) {
    // A well-formed event with one bad value says which; anything else gets the shape's message.
    const [only, ...more] = parsed.error.issues;
    const specific =
      more.length === 0 && only?.path[0] === "type" && only.code === "invalid_value"
        ? "billing.eventTypeUnknown"
        : more.length === 0 && only?.path[0] === "id" && only.code === "invalid_format"
          ? "billing.eventIdInvalid"
          : "billing.eventInvalid";
    throw new DomainError("BAD_REQUEST", specific);
  }
  if (!isUuid(parsed.data.organizationId)) throw new DomainError("NOT_FOUND", "organizationNotFound");
  return parsed.data;
}

type EventDecision =
  | { kind: "unchanged" }
  | { kind: "state"; next: Billing; reason: "payment_failed" | "payment_recovered" }
  | { kind: "revoke"; next: Billing; reason: "refund" | "dispute" };

/** The contract's transitions for one event, from the state read under the lock. */
function decide(current: Billing, event: ProviderEvent): EventDecision {
  if (!isPaidPlan(current.planId)) throw new DomainError("CONFLICT", "billing.eventNoPaidPlan");
  switch (event.type) {
    case "refund":
    case "dispute":
      return { kind: "revoke", next: { planId: DEFAULT_PLAN, state: "active" }, reason: event.type };
    case "payment_failed":
      if (current.state === "canceled") throw new DomainError("CONFLICT", "billing.eventCanceled");
      if (current.state === "past_due_blocked") return { kind: "unchanged" };
      return {
        kind: "state",
        next: { planId: current.planId, state: current.state === "active" ? "past_due" : "past_due_blocked" },
        reason: event.type,
      };
    case "payment_recovered":
      if (current.state === "canceled") throw new DomainError("CONFLICT", "billing.eventCanceled");
      if (current.state === "active") return { kind: "unchanged" };
      return { kind: "state", next: { planId: current.planId, state: "active" }, reason: event.type };
  }
}

/**
 * Applies one provider event, at most once per event id: the id is stored with the change, in
 * the same transaction, and is the audit event's idempotency key. A repeated delivery (also one
 * running at the same moment: the organization's lock orders them) changes and records nothing.
 * The same id arriving for another organization or type is a conflict, not a replay.
 */
export async function applyProviderEvent(
  setup: BillingSetup,
  event: ProviderEvent,
): Promise<{ outcome: EventOutcome; billing: BillingStatus }> {
  const { organizationId } = event;
  return prisma.$transaction(async (tx) => {
    const current = await lockBilling(tx, organizationId);
    const key = { provider: setup.eventSource, eventId: event.id };
    const seen = await appliedProviderEvent(tx, key, organizationId);
    if (seen) {
      if (seen.organizationId !== organizationId || seen.type !== event.type) throw new DomainError("CONFLICT", "billing.eventIdReused");
      return { outcome: "already_processed", billing: statusOf(current) };
    }
    const decision = decide(current, event);
    const outcome = decision.kind === "unchanged" ? "unchanged" : "applied";
    // The same id for another organization, committed meanwhile: only the lookup's key can tell.
    const stored = await storeProviderEvent(tx, key, { organizationId, type: event.type, outcome });
    if (!stored) throw new DomainError("CONFLICT", "billing.eventIdReused");
    if (decision.kind === "unchanged") return { outcome, billing: statusOf(current) };

    await writeBilling(tx, organizationId, decision.next);
    const common = {
      organizationId,
      actor: BILLING_PROVIDER_ACTOR,
      target: { type: "organization" as const, id: organizationId },
      idempotencyKey: `billing-event:${setup.eventSource}:${event.id}`,
    };
    if (decision.kind === "revoke") {
      const details: AuditDetails<"billing.plan_revoked"> = {
        reason: decision.reason,
        plan: { from: current.planId, to: decision.next.planId },
        ...stateChange(current.state, decision.next.state),
      };
      await recordAuditEvent(tx, { ...common, action: "billing.plan_revoked", details });
    } else {
      await recordAuditEvent(tx, {
        ...common,
        action: "billing.state_changed",
        details: { reason: decision.reason, state: { from: current.state, to: decision.next.state } },
      });
    }
    return { outcome, billing: statusOf(decision.next) };
  });
}

/** One delivery of POST /api/billing/provider-events, from its raw body to the change. */
export async function receiveProviderEvent(headers: Headers, body: string, setup = billingSetup()) {
  return applyProviderEvent(setup, parseProviderEvent(setup, headers, body));
}
