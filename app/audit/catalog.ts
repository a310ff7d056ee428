// The audit action catalog: the single source for what can be recorded. Each action has a stable
// identifier (stored in rows forever: never rename one), the target type it applies to, and a
// strict details schema (no extra members, so request bodies, credentials or ORM objects cannot
// slip in). Labels, descriptions and detail labels live in the `audit` locale namespace, keyed by
// the same identifiers; how stored details are shown (rows, and the labels of values that are
// identifiers: roles, scopes, plans…) is app/audit/ui/detail-presentation.ts.
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
/** A key's listed prefix: `sk_` and 8 base62 characters (app/api-keys/secret.server.ts). */
const keyPrefix = z.string().regex(/^sk_[0-9A-Za-z]{8}$/);

// Audit streams (app/audit-streams/, docs/decisions/0052-audit-streams.md). The lists are spelled
// here because the audit layer sits below audit-streams; tests/integration/audit-streams-catalog.test.ts
// holds them equal to STREAM_KINDS and DELIVERY_FAILURES. A destination is named by its label
// (destinationLabel: the origin, `/…` for a path, or s3://bucket/prefix), never by anything that
// could carry a credential (a hook's path can).
const streamKind = z.enum(["webhook", "splunk", "datadog", "s3"]);
const streamName = text(100);
const streamDestination = text(2100);
/** Where a stream started: "now" or the replay's first day. */
const streamStart = z.union([z.literal("now"), isoDate]);
const streamOutcome = z.enum([
  "delivered",
  "address_refused",
  "dns",
  "network",
  "tls",
  "timeout",
  "redirect",
  "http_status",
  "response_too_large",
  "rejected",
]);

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
    // The listed prefix before and after (the part of a secret every list shows, never more: the
    // pattern refuses a whole secret), so the log says which secret was live when. Optional:
    // events recorded before it was kept have only the name (docs/decisions/0034-german-keys-billing-dark-mode.md).
    details: z.object({ name: text(100), prefix: change(keyPrefix).optional() }).strict(),
  },
  "api_key.revoked": {
    targetType: "api_key",
    details: z.object({ name: text(100) }).strict(),
  },
  // A secret scanner (GitHub's partner program) found the key's current secret in public: recorded
  // once per leaked secret, by the system actor "github-secret-scanning", with where it was found
  // first (a public URL, GitHub's source kind); never the secret (docs/decisions/0060-secret-scanning-reports.md).
  "api_key.reported_leaked": {
    targetType: "api_key",
    details: z.object({ name: text(100), prefix: keyPrefix, source: text(64), url: text(2048) }).strict(),
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
  "audit_stream.created": {
    targetType: "audit_stream",
    details: z.object({ name: streamName, kind: streamKind, destination: streamDestination, start: streamStart }).strict(),
  },
  "audit_stream.updated": {
    targetType: "audit_stream",
    // What changed: the name, where it sends, which other settings (by field name: a Splunk index,
    // a Datadog service…), and whether new credentials were stored (never the credentials).
    details: z
      .object({
        name: change(streamName).optional(),
        destination: change(streamDestination).optional(),
        changedSettings: z
          .array(z.string().regex(/^[A-Za-z]{1,40}$/))
          .max(10)
          .optional(),
        credentialsReplaced: z.literal(true).optional(),
      })
      .strict()
      .refine((d) => Object.keys(d).length > 0, "at least one thing must change"),
  },
  "audit_stream.paused": {
    targetType: "audit_stream",
    details: z.object({ name: streamName }).strict(),
  },
  "audit_stream.resumed": {
    targetType: "audit_stream",
    details: z.object({ name: streamName }).strict(),
  },
  "audit_stream.restarted": {
    targetType: "audit_stream",
    details: z.object({ name: streamName, start: streamStart }).strict(),
  },
  "audit_stream.tested": {
    targetType: "audit_stream",
    // The receiver's HTTP status when it answered.
    details: z.object({ name: streamName, outcome: streamOutcome, status: z.number().int().min(100).max(599).optional() }).strict(),
  },
  "audit_stream.deleted": {
    targetType: "audit_stream",
    // The name and kind, so the log still says which destination it was once it is gone.
    details: z.object({ name: streamName, kind: streamKind }).strict(),
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
