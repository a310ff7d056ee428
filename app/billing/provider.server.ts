// The payment provider boundary (docs/decisions/0029-billing.md). A real provider (Stripe,
// Paddle, …) plugs in by implementing BillingProvider and being returned by billingSetup() for
// its configuration; everything else (the state machine, the audit events, idempotency, the
// pages and procedures) stays as it is. Its incoming events reach POST /api/billing/provider-events,
// are checked with `verifyEvent` and turned into one of the ProviderEvent types below.
//
// The one provider shipped is the development provider: plan changes complete at once, without
// payment, and it is active only on the embedded database that `npm start` runs. Its events are
// `{id, type, organizationId}`, unsigned there unless BILLING_WEBHOOK_SECRET is set.
import { z } from "zod";
import { env } from "~/env.server";
import type { PlanId } from "~/plans/catalog";
import { SIGNATURE_HEADER, verifySignature } from "./signature.server";
import { errorKey } from "~/lib/error-key";

export const PROVIDER_EVENT_TYPES = ["payment_failed", "payment_recovered", "refund", "dispute"] as const;
export type ProviderEventType = (typeof PROVIDER_EVENT_TYPES)[number];

/** A provider event as the state machine takes it, whatever the provider's own format. */
export interface ProviderEvent {
  /** The provider's id for the event: the idempotency key (same id, same event). */
  id: string;
  type: ProviderEventType;
  organizationId: string;
}

/** A refusal of an incoming event before it is read: no valid signature, or no way to check one. */
export type EventRefusal = "unsigned" | "badSignature" | "expiredSignature" | "notConfigured";

export type VerifiedBody = { ok: true; body: string } | { ok: false; refusal: EventRefusal };

export interface BillingProvider {
  /** Stable name, stored with each processed event (event ids are unique per provider). */
  readonly name: string;
  /** Starts a change to `planId`; resolves once the provider has taken the payment. */
  startCheckout(request: { organizationId: string; planId: PlanId }): Promise<void>;
  /** Stops renewing the subscription. */
  cancel(request: { organizationId: string }): Promise<void>;
  /** Renews a canceled subscription again. */
  resume(request: { organizationId: string }): Promise<void>;
}

/** Completes every request at once: no payment is taken (the embedded database only). */
export const developmentProvider: BillingProvider = {
  name: "development",
  startCheckout: async () => {},
  cancel: async () => {},
  resume: async () => {},
};

export interface BillingSetup {
  /** Who takes plan changes; null: billing is not set up (plan changes answer 409). */
  provider: BillingProvider | null;
  /** The provider name incoming events are recorded under. */
  eventSource: string;
  /** The shared secret incoming events must be signed with, if any. */
  webhookSecret: string | null;
  /** Unsigned events are taken (the development provider without a secret). */
  acceptUnsigned: boolean;
}

export function billingSetupFrom(config: { embeddedDatabase: boolean; webhookSecret?: string | null }): BillingSetup {
  const webhookSecret = config.webhookSecret ?? null;
  const provider = config.embeddedDatabase ? developmentProvider : null;
  return {
    provider,
    eventSource: provider?.name ?? "signed",
    webhookSecret,
    acceptUnsigned: config.embeddedDatabase && webhookSecret === null,
  };
}

/** The setup of this process, from its configuration. */
export function billingSetup(): BillingSetup {
  const { KEYLEDGER_EMBEDDED_DATABASE, BILLING_WEBHOOK_SECRET } = env();
  return billingSetupFrom({ embeddedDatabase: KEYLEDGER_EMBEDDED_DATABASE, webhookSecret: BILLING_WEBHOOK_SECRET });
}

/** The body of a delivery, if its signature holds (or the setup takes unsigned events). */
export function verifyEventBody(setup: BillingSetup, headers: Headers, body: string, now = Date.now()): VerifiedBody {
  if (setup.webhookSecret !== null) {
    const check = verifySignature(setup.webhookSecret, headers.get(SIGNATURE_HEADER), body, now);
    if (check.ok) return { ok: true, body };
    return {
      ok: false,
      refusal: check.reason === "missing" ? "unsigned" : check.reason === "expired" ? "expiredSignature" : "badSignature",
    };
  }
  return setup.acceptUnsigned ? { ok: true, body } : { ok: false, refusal: "notConfigured" };
}

/** Event ids are the audit idempotency key's suffix: short, printable, no spaces. */
const eventIdSchema = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, errorKey("billing.eventIdInvalid"));

export const providerEventSchema = z
  .object({
    id: eventIdSchema,
    type: z.enum(PROVIDER_EVENT_TYPES, { error: errorKey("billing.eventTypeUnknown") }),
    organizationId: z.string().max(64),
  })
  .strict();
