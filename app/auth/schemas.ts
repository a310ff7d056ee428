// Form and procedure schemas for accounts. Messages are translation keys under `errors:`.
import { z } from "zod";
import { asciiLowerCase, storedText } from "~/lib/text";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-rules";

export const emailSchema = storedText({ max: 254 })
  .transform(asciiLowerCase)
  .pipe(z.email({ error: "field.email" }));

export const signInSchema = z.object({
  email: emailSchema,
  // Bounded so argon2 never sees a huge input; the real rule is checked at sign-up.
  password: z.string({ error: "field.required" }).min(1, "field.required").max(PASSWORD_MAX_LENGTH, "field.passwordTooLong"),
  redirectTo: z.string().max(2048).optional(),
});

export const signUpSchema = z
  .object({
    name: storedText({ max: 80 }),
    email: emailSchema,
    password: z
      .string({ error: "field.required" })
      .min(PASSWORD_MIN_LENGTH, "field.passwordTooShort")
      .max(PASSWORD_MAX_LENGTH, "field.passwordTooLong"),
    confirmPassword: z.string({ error: "field.required" }).max(PASSWORD_MAX_LENGTH, "field.passwordTooLong"),
    redirectTo: z.string().max(2048).optional(),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "field.passwordsDiffer" });

export const totpCodeSchema = z
  .string({ error: "field.required" })
  .trim()
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "field.totpCode"));

/** A TOTP code, or a recovery code (xxxxx-xxxxx) at sign-in. */
export const secondFactorSchema = z.object({
  code: z.string({ error: "field.required" }).trim().min(1, "field.required").max(64, "field.totpCode"),
});
