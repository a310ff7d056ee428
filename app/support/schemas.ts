// What a platform admin states before reading an organization's audit log, and the filters of the
// support records page. Shared by the forms (conform) and the procedures (oRPC); messages are
// translation keys under `errors:`. Client-safe.
import { z } from "zod";
import { parseCalendarDay } from "~/lib/dates";
import { isStorableText, optionalInput, storedText } from "~/lib/text";
import { isUuid } from "~/lib/ids";
import { errorKey } from "~/lib/error-key";
import { isPlanId } from "~/plans/catalog";

/** Why the admin needs to look (required): long enough to mean something to a later reader. */
export const supportReasonSchema = storedText({ min: 10, max: 500 });

/** A ticket reference from whatever tracker support uses ("ZD-4711", "#123"): optional, short. */
export const supportTicketSchema = optionalInput(storedText({ max: 100 }));

export const beginSupportAccessSchema = z.object({ reason: supportReasonSchema, ticket: supportTicketSchema }).strict();
export type SupportAccessInput = z.output<typeof beginSupportAccessSchema>;

/** The procedure's input: the same plus the organization. */
export const beginSupportAccessInputSchema = beginSupportAccessSchema.extend({ organizationId: z.string().max(64) }).strict();

/** What a support record says was done. Stable identifiers: stored, filtered on, translated. */
export const SUPPORT_ACTIONS = [
  "access.opened",
  "audit_log.listed",
  "audit_log.actors_listed",
  "audit_event.viewed",
  "billing.plan_set",
] as const;
export type SupportActionName = (typeof SUPPORT_ACTIONS)[number];

const day = z.string().refine((value) => parseCalendarDay(value).ok, errorKey("supportLog.badDate"));

/** The records page's filters (search params): admin, organization, UTC days inclusive. */
export const supportLogFiltersSchema = z
  .object({
    adminId: optionalInput(z.string().refine(isUuid, errorKey("supportLog.badFilter"))),
    organizationId: optionalInput(z.string().refine(isUuid, errorKey("supportLog.badFilter"))),
    from: optionalInput(day),
    to: optionalInput(day),
    cursor: optionalInput(z.string().max(400, errorKey("supportLog.badCursor"))),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ["to"], message: errorKey("supportLog.badRange") });
export type SupportLogFilters = z.output<typeof supportLogFiltersSchema>;

/** The organization search (name, slug or id). */
export const organizationSearchSchema = z.object({
  q: optionalInput(
    z
      .string()
      // Characters, not UTF-16 units, as everywhere else.
      .refine((v) => [...v].length <= 100, errorKey("organizationSearch.tooLong"))
      // PostgreSQL refuses NUL in text, and a lone surrogate cannot be sent as UTF-8.
      .refine(isStorableText, errorKey("organizationSearch.badText")),
  ),
  cursor: optionalInput(z.string().max(400, errorKey("organizationSearch.badCursor"))),
});

/** Setting an organization's plan from the console: the plan, why (required, as for access) and
 * the ticket. `intent`: "review" shows the confirmation, "apply" changes the plan, "edit" goes
 * back to the form with the same values. */
export const supportSetPlanSchema = z
  .object({
    intent: z.enum(["review", "apply", "edit"]),
    planId: z.string({ error: errorKey("supportPlan.choosePlan") }).refine(isPlanId, errorKey("billing.unknownPlan")),
    reason: supportReasonSchema,
    ticket: supportTicketSchema,
  })
  .strict();
export type SupportSetPlanInput = z.output<typeof supportSetPlanSchema>;
