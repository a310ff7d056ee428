// Input of the billing page's forms and the billing procedures: one schema each, shared.
import { z } from "zod";
import { isPlanId } from "~/plans/catalog";
import { errorKey } from "~/lib/error-key";

/** A plan of today's catalog; anything else is a 400 with its own message. */
export const planIdSchema = z
  .string({ error: errorKey("billing.unknownPlan") })
  .max(64, errorKey("billing.unknownPlan"))
  .refine((value) => isPlanId(value), errorKey("billing.unknownPlan"));

export const BILLING_INTENTS = ["checkout", "cancel", "resume"] as const;
export type BillingIntent = (typeof BILLING_INTENTS)[number];

export const billingActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("checkout"), planId: planIdSchema }).strict(),
  z.object({ intent: z.literal("cancel") }).strict(),
  z.object({ intent: z.literal("resume") }).strict(),
]);

export const billingPageQuerySchema = z.object({
  confirm: z.enum(BILLING_INTENTS).optional().catch(undefined),
  plan: z.string().max(64).optional().catch(undefined),
  done: z.enum(BILLING_INTENTS).optional().catch(undefined),
});
