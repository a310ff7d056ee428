// Input schemas shared by the forms (conform) and the procedures (oRPC). Messages are
// translation keys under `errors:`; forms translate them when rendering.
import { z } from "zod";
import { emailSchema } from "~/auth/schemas";
import { Role } from "~/generated/prisma/enums";
import { asciiLowerCase, storedText } from "~/lib/text";
import { errorKey } from "~/lib/error-key";

const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,46}[a-z0-9]$/;

/**
 * Slugs that would read as the product's own pages or as an official account if they ever appear
 * in a URL, a mail or a support conversation ("keyledger.example/admin"). Refused for every
 * organization (docs/decisions/0023-member-rules-and-settings.md).
 */
export const RESERVED_SLUGS = new Set([
  "about",
  "account",
  "accounts",
  "admin",
  "administrator",
  "api",
  "app",
  "assets",
  "audit",
  "audit-log",
  "auth",
  "billing",
  "blog",
  "dashboard",
  "docs",
  "help",
  "healthz",
  "invitations",
  "keyledger",
  "login",
  "logout",
  "new",
  "null",
  "official",
  "organization",
  "organizations",
  "owner",
  "ping",
  "platform",
  "root",
  "rpc",
  "security",
  "settings",
  "signup",
  "staff",
  "static",
  "status",
  "support",
  "system",
  "undefined",
  "www",
]);

export const organizationNameSchema = storedText({ max: 80 });

export const slugSchema = storedText({ max: 48 })
  .transform(asciiLowerCase)
  .pipe(
    z
      .string()
      .regex(SLUG_PATTERN, errorKey("field.slug"))
      .refine((slug) => !slug.includes("--"), errorKey("field.slug"))
      .refine((slug) => !RESERVED_SLUGS.has(slug), errorKey("field.slugReserved")),
  );

export const organizationInputSchema = z
  .object({
    name: organizationNameSchema,
    slug: slugSchema.optional(),
  })
  .strict();
export type OrganizationInput = z.infer<typeof organizationInputSchema>;

/** Typed to confirm a deletion: compared with the organization's current name. */
export const confirmNameSchema = z.string({ error: errorKey("field.required") }).max(200, errorKey("field.tooLong"));

/** An uploaded logo's id; `null` removes the logo. */
const logoIdSchema = z.uuid({ error: errorKey("organization.logoNotFound") }).nullable();

/** organization.update: only the members given change. */
export const organizationUpdateSchema = z
  .object({
    organizationId: z.string().max(64),
    name: organizationNameSchema.optional(),
    slug: slugSchema.optional(),
    logoId: logoIdSchema.optional(),
    requireTwoFactor: z.boolean().optional(),
  })
  .strict();
export type OrganizationUpdate = Omit<z.infer<typeof organizationUpdateSchema>, "organizationId">;

/** The settings page's form: every field is submitted; the logo arrives as a file (or "remove"). */
export const organizationSettingsSchema = z
  .object({
    intent: z.literal("settings"),
    name: organizationNameSchema,
    slug: slugSchema,
    requireTwoFactor: z.boolean().default(false),
    removeLogo: z.boolean().default(false),
    // Checked on the server from its bytes (app/organizations/logos.server.ts), not here.
    logo: z.instanceof(File).optional(),
  })
  .strict();

export const deleteOrganizationSchema = z.object({ intent: z.literal("delete"), confirmName: confirmNameSchema }).strict();

export const settingsActionSchema = z.discriminatedUnion("intent", [organizationSettingsSchema, deleteOrganizationSchema]);

export const roleSchema = z.enum(Role, { error: errorKey("field.role") });

export const inviteMemberSchema = z.object({ email: emailSchema, role: roleSchema }).strict();
export type InviteMemberInput = z.infer<typeof inviteMemberSchema>;

export const memberRoleSchema = z.object({ userId: z.string().max(64), role: roleSchema }).strict();

/** An invitation token as the accept link carries it (43 base64url characters); anything else is unknown. */
export const invitationTokenSchema = z.string().max(200);

/** A slug from a name: "Acme GmbH & Co." → "acme-gmbh-co". Falls back to a random suffix. */
export function slugFromName(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/g, "");
  return base.length >= 3 && !RESERVED_SLUGS.has(base) ? base : `org-${crypto.randomUUID().slice(0, 8)}`;
}

const idField = z.string({ error: errorKey("field.required") }).max(64);

/** The members page's forms, told apart by `intent`. */
export const memberActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("invite"), email: emailSchema, role: roleSchema }).strict(),
  z.object({ intent: z.literal("resend"), invitationId: idField }).strict(),
  z.object({ intent: z.literal("cancel"), invitationId: idField }).strict(),
  z.object({ intent: z.literal("role"), userId: idField, role: roleSchema }).strict(),
  z.object({ intent: z.literal("remove"), userId: idField }).strict(),
  z.object({ intent: z.literal("leave") }).strict(),
]);
export type MemberAction = z.infer<typeof memberActionSchema>;
