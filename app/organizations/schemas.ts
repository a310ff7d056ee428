// Input schemas shared by the forms (conform) and the procedures (oRPC). Messages are
// translation keys under `errors:`; forms translate them when rendering.
import { z } from "zod";
import { asciiLowerCase, storedText } from "~/lib/text";

const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,46}[a-z0-9]$/;

const organizationNameSchema = storedText({ max: 80 });

const slugSchema = storedText({ max: 48 }).transform(asciiLowerCase).pipe(z.string().regex(SLUG_PATTERN, "field.slug"));

export const organizationInputSchema = z
  .object({
    name: organizationNameSchema,
    slug: slugSchema.optional(),
  })
  .strict();
export type OrganizationInput = z.infer<typeof organizationInputSchema>;

export const organizationSettingsSchema = z
  .object({
    name: organizationNameSchema,
    slug: slugSchema,
    logoUrl: storedText({ min: 0, max: 2048 })
      .refine((v) => v === "" || /^https:\/\/[^\s]+$/.test(v), "field.url")
      .optional()
      .transform((v) => (v ? v : null)),
    requireTwoFactor: z.boolean().default(false),
  })
  .strict();
export type OrganizationSettingsInput = z.infer<typeof organizationSettingsSchema>;

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
  return base.length >= 3 ? base : `org-${crypto.randomUUID().slice(0, 8)}`;
}
