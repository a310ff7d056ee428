// The audit action catalog: the single source for what can be recorded. Each action has a stable
// identifier (stored in rows forever: never rename one), the target type it applies to, and a
// strict details schema (no extra members, so request bodies, credentials or ORM objects cannot
// slip in). Labels, descriptions and detail labels live in the `audit` locale namespace, keyed by
// the same identifiers; `presentDetails` turns stored details into label/value rows for the UI.
// This module has no server dependencies: the audit pages render with it in the browser too.
import { z } from "zod";
import { API_KEY_SCOPES } from "~/access/api-key-scopes";
import { ActorKind, BillingState, Role } from "~/generated/prisma/enums";

const role = z.enum(Role);
/** Short free text we choose to keep (names, settings values); bounded so details stay small. */
const text = (max: number) => z.string().max(max);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const isoDateTime = z.iso.datetime({ offset: true });
const change = <T extends z.ZodType>(value: T) => z.object({ from: value, to: value }).strict();
/** A plan id as stored: not limited to today's catalog, which may drop a plan that history names. */
const planId = z.string().regex(/^[a-z0-9_-]{1,64}$/);
const billingState = z.enum(BillingState);

export const auditCatalog = {
  "api_key.issued": {
    targetType: "api_key",
    details: z
      .object({
        name: text(100),
        scopes: z.array(z.enum(API_KEY_SCOPES)).min(1),
        expiresAt: isoDateTime.nullable(),
      })
      .strict(),
  },
  "api_key.rotated": {
    targetType: "api_key",
    details: z.object({ name: text(100) }).strict(),
  },
  "api_key.revoked": {
    targetType: "api_key",
    details: z.object({ name: text(100) }).strict(),
  },
  "invitation.sent": {
    targetType: "invitation",
    // The e-mail address is not stored: it is resolved from the invitation at read time.
    details: z.object({ role }).strict(),
  },
  "invitation.accepted": {
    targetType: "invitation",
    details: z.object({ role, userId: z.string().max(64) }).strict(),
  },
  "invitation.canceled": {
    targetType: "invitation",
    details: z.object({}).strict(),
  },
  "member.removed": {
    // Target id is the user id, which stays stable after the membership is gone.
    targetType: "user",
    details: z.object({ role, reason: z.enum(["removed", "left"]) }).strict(),
  },
  "member.role_changed": {
    targetType: "user",
    details: z.object({ from: role, to: role, automatic: z.boolean().optional() }).strict(),
  },
  "organization.created": {
    targetType: "organization",
    // The name and slug chosen at creation; later changes are organization.settings_changed.
    details: z.object({ name: text(200), slug: text(64) }).strict(),
  },
  "organization.settings_changed": {
    targetType: "organization",
    details: z
      .object({
        name: change(text(200)).optional(),
        slug: change(text(64)).optional(),
        // The uploaded image's id (the image itself is served by the app; docs/decisions/0022-organization-logos.md).
        logo: change(z.uuid().nullable()).optional(),
        requireTwoFactor: change(z.boolean()).optional(),
      })
      .strict()
      .refine((d) => Object.keys(d).length > 0, "at least one setting must change"),
  },
  "audit.exported": {
    targetType: "organization",
    details: z
      .object({
        format: z.enum(["csv", "json"]),
        filters: z
          .object({
            action: text(100).optional(),
            actorId: text(128).optional(),
            targetId: text(128).optional(),
            from: isoDate.optional(),
            to: isoDate.optional(),
          })
          .strict(),
      })
      .strict(),
  },
  // Billing (docs/decisions/0029-billing.md). An owner's checkout, cancel and resume; the payment
  // provider's state changes and revocations (system actor "billing-provider"). `state` is present
  // when the billing state changed too.
  "billing.plan_changed": {
    targetType: "organization",
    details: z.object({ plan: change(planId), state: change(billingState).optional() }).strict(),
  },
  "billing.canceled": {
    targetType: "organization",
    details: z.object({ plan: planId, state: change(billingState) }).strict(),
  },
  "billing.resumed": {
    targetType: "organization",
    details: z.object({ plan: planId, state: change(billingState) }).strict(),
  },
  "billing.state_changed": {
    targetType: "organization",
    details: z.object({ reason: z.enum(["payment_failed", "payment_recovered"]), state: change(billingState) }).strict(),
  },
  "billing.plan_revoked": {
    targetType: "organization",
    details: z.object({ reason: z.enum(["refund", "dispute"]), plan: change(planId), state: change(billingState).optional() }).strict(),
  },
} as const satisfies Record<string, { targetType: string; details: z.ZodType }>;

export type AuditCatalog = typeof auditCatalog;
export type AuditAction = keyof AuditCatalog;
export type AuditDetails<A extends AuditAction> = z.input<AuditCatalog[A]["details"]>;
export type AuditTargetType<A extends AuditAction> = AuditCatalog[A]["targetType"];

export const AUDIT_ACTIONS = Object.keys(auditCatalog) as AuditAction[];
export const ACTOR_KINDS = Object.values(ActorKind);
export type { ActorKind };

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === "string" && Object.hasOwn(auditCatalog, value);
}

/** Translation key of an action's label, with the identifier as fallback (docs/product-rules.md, Audit event rule 6). */
export function actionLabelKey(action: string): string {
  return `audit:actions.${action}.label`;
}

export type DetailValue =
  | { kind: "text"; value: string }
  | { kind: "list"; value: string[] }
  | { kind: "datetime"; value: string }
  | { kind: "change"; from: string; to: string }
  /** A set of named values (the export's filters): each shown with its own label. */
  | { kind: "named"; value: { field: string; labelKey: string; value: string }[] }
  | { kind: "json"; value: string };

/** Detail fields whose object value is a set of named values, never a change: the export's
 * filters may hold exactly `from` and `to`, which would otherwise read as "from → to". */
const NAMED_VALUE_FIELDS = new Set(["filters"]);

/**
 * Detail rows for the UI: `labelKey` is a key under `audit:`, values are raw (the component
 * translates roles and scopes and formats dates in the page's language). Unknown actions or
 * details that no longer match their schema fall back to the JSON, so history always renders.
 */
export function presentDetails(action: string, details: unknown): { field: string; labelKey: string; value: DetailValue }[] {
  if (!isAuditAction(action) || typeof details !== "object" || details === null || Array.isArray(details)) {
    return [{ field: "details", labelKey: "audit:details.raw", value: { kind: "json", value: JSON.stringify(details) } }];
  }
  const rows: { field: string; labelKey: string; value: DetailValue }[] = [];
  const show = (v: unknown): string => (v === null || v === undefined ? "—" : typeof v === "string" ? v : JSON.stringify(v));
  for (const [field, value] of Object.entries(details as Record<string, unknown>)) {
    const labelKey = `audit:details.${field}`;
    if (Array.isArray(value)) rows.push({ field, labelKey, value: { kind: "list", value: value.map(show) } });
    else if (NAMED_VALUE_FIELDS.has(field) && value !== null && typeof value === "object") {
      const named = Object.entries(value as Record<string, unknown>).map(([name, v]) => ({
        field: name,
        labelKey: `audit:details.${name}`,
        value: show(v),
      }));
      rows.push({ field, labelKey, value: { kind: "named", value: named } });
    } else if (value && typeof value === "object" && "from" in value && "to" in value) {
      rows.push({ field, labelKey, value: { kind: "change", from: show(value.from), to: show(value.to) } });
    } else if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value))
      rows.push({ field, labelKey, value: { kind: "datetime", value } });
    else if (value !== null && typeof value === "object")
      rows.push({ field, labelKey, value: { kind: "json", value: JSON.stringify(value) } });
    else rows.push({ field, labelKey, value: { kind: "text", value: show(value) } });
  }
  return rows;
}
