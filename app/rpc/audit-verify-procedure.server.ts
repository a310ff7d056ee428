// auditLog.verify (docs/contract.md): owners and admins check their organization's audit log
// against its signed digests and get the verdict (app/audit-integrity/verdict.ts, JSON as it is).
// The input's shape is a 400 before any access check; the days are read after it, as auditLog.list
// reads its filters, so a caller without access learns nothing from the validation.
import { z } from "zod";
import { parseVerifyRange } from "~/audit-integrity/verify-range";
import { verifyAuditLogFor } from "~/audit-integrity/verify-request.server";
import { organizationProcedure } from "./organization-procedure.server";

const verifyInput = z
  .object({ organizationId: z.string().max(64), from: z.string().max(200).optional(), to: z.string().max(200).optional() })
  .strict();

export const verifyAuditLogProcedure = organizationProcedure("audit:view")
  .input(verifyInput)
  .handler(({ context, input }) => verifyAuditLogFor(context.access, parseVerifyRange(input)));
