// The days a verification checks (auditLog.verify and the integrity page's form): `from` and `to`,
// YYYY-MM-DD (UTC) as the audit log's filters and export take them, both optional. Client-safe.
import { z } from "zod";
import { AUDIT_FILTERS } from "~/audit/audit-query";
import { isErrorKey } from "~/i18n/error-keys";
import { DomainError } from "~/lib/domain-error";
import { errorKey } from "~/lib/error-key";
import { optionalInput } from "~/lib/text";

export interface VerifyRange {
  from?: string;
  to?: string;
}

/** The form's and the procedure's rule for the days (conform reads it for the page's form). */
export const verifyRangeSchema = z
  .object({ from: optionalInput(AUDIT_FILTERS.from.schema), to: optionalInput(AUDIT_FILTERS.to.schema) })
  .refine((range) => !range.from || !range.to || range.from <= range.to, { path: ["to"], message: errorKey("auditLog.badRange") });

/** The range from raw values (a form's or a procedure's); bad input is a 400 with a translated message. */
export function parseVerifyRange(raw: { from?: unknown; to?: unknown }): VerifyRange {
  const result = verifyRangeSchema.safeParse({ from: raw.from, to: raw.to });
  if (!result.success) {
    const message = result.error.issues[0]?.message ?? "";
    throw new DomainError("BAD_REQUEST", isErrorKey(message) ? message : "badRequest");
  }
  return {
    ...(result.data.from ? { from: result.data.from } : {}),
    ...(result.data.to ? { to: result.data.to } : {}),
  };
}
