// Form and procedure schemas for accounts. Messages are translation keys under `errors:`.
import { z } from "zod";
import { asciiLowerCase, optionalInput, storedText } from "~/lib/text";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-rules";
import { errorKey } from "~/lib/error-key";

/** RFC 5321's longest address; the forms' "at most" message names it (it is not the fields' default). */
export const EMAIL_MAX_LENGTH = 254;

export const emailSchema = storedText({ max: EMAIL_MAX_LENGTH })
  .transform(asciiLowerCase)
  .pipe(z.email({ error: errorKey("field.email") }));

/** A password being chosen (sign-up, change): the length rule of app/auth/password-rules.ts. */
const newPasswordSchema = z
  .string({ error: errorKey("field.required") })
  .min(PASSWORD_MIN_LENGTH, errorKey("field.passwordTooShort"))
  .max(PASSWORD_MAX_LENGTH, errorKey("field.passwordTooLong"));

/** A password being checked: bounded so argon2 never sees a huge input. */
const givenPasswordSchema = z
  .string({ error: errorKey("field.required") })
  .min(1, errorKey("field.required"))
  .max(PASSWORD_MAX_LENGTH, errorKey("field.passwordTooLong"));

export const signInSchema = z.object({
  email: emailSchema,
  // The real rule is checked at sign-up.
  password: givenPasswordSchema,
  redirectTo: z.string().max(2048).optional(),
});

export const signUpSchema = z
  .object({
    name: storedText({ max: 80 }),
    email: emailSchema,
    password: newPasswordSchema,
    confirmPassword: z.string({ error: errorKey("field.required") }).max(PASSWORD_MAX_LENGTH, errorKey("field.passwordTooLong")),
    redirectTo: z.string().max(2048).optional(),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: errorKey("field.passwordsDiffer") });

export const totpCodeSchema = z
  .string({ error: errorKey("field.required") })
  .trim()
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, errorKey("field.totpCode")));

/** A TOTP code, or a recovery code (xxxxx-xxxxx) at sign-in. */
export const secondFactorSchema = z.object({
  code: z
    .string({ error: errorKey("field.required") })
    .trim()
    .min(1, errorKey("field.required"))
    .max(64, errorKey("field.totpCode")),
});

/** account.changePassword's input. */
export const changePasswordSchema = z.object({ currentPassword: givenPasswordSchema, newPassword: newPasswordSchema }).strict();

/** The account page's form: the same, with the new password typed twice. */
export const changePasswordFormSchema = z
  .object({ currentPassword: givenPasswordSchema, newPassword: newPasswordSchema, confirmPassword: givenPasswordSchema })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: errorKey("field.passwordsDiffer") });

/** A session id as the session list shows it (the hex SHA-256 of its token); anything else is a 400. */
export const sessionIdSchema = z.string().regex(/^[0-9a-f]{64}$/, errorKey("account.badSessionId"));

/** account.delete's input (and the account page's form): the password, the second factor when
 * enrolled (blank means none), and the account's address typed to confirm. */
export const deleteAccountSchema = z
  .object({
    password: givenPasswordSchema,
    code: optionalInput(z.string().max(64, errorKey("field.totpCode"))),
    confirm: z
      .string({ error: errorKey("field.required") })
      .trim()
      .min(1, errorKey("field.required"))
      .max(254, errorKey("account.confirmEmailMismatch")),
  })
  .strict();

/** The account page's deletion form: the same fields, sent with intent=delete. */
export const deleteAccountFormSchema = deleteAccountSchema.extend({ intent: z.literal("delete") });

/** "Forgot password": the address to send the link to. */
export const forgotPasswordSchema = z.object({ email: emailSchema });

/** The reset page's form: the link's token and the new password, typed twice. */
export const resetPasswordFormSchema = z
  .object({
    token: z.string({ error: errorKey("passwordReset.invalidLink") }).max(200, errorKey("passwordReset.invalidLink")),
    newPassword: newPasswordSchema,
    confirmPassword: givenPasswordSchema,
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: errorKey("field.passwordsDiffer") });

/** The account page's name form. */
export const updateNameFormSchema = z.object({ intent: z.literal("name"), name: storedText({ max: 80 }) });

/** The account page's change-of-address form: the new address and the current password. */
export const changeEmailFormSchema = z.object({
  intent: z.literal("email"),
  newEmail: emailSchema,
  currentPassword: givenPasswordSchema,
});

/** A mailed link's token, as its confirmation form sends it back. */
export const emailLinkFormSchema = z.object({ token: z.string().max(200), redirectTo: z.string().max(2048).optional() });

/** The verification page's form: the link's token and the password chosen at sign-up (the link
 * alone must not make an account someone else signed up with the address theirs). */
export const verifyEmailFormSchema = emailLinkFormSchema.extend({ password: givenPasswordSchema });
