// DomainError → oRPC error, in one place; also translates oRPC's own input errors.
import { ORPCError } from "@orpc/server";
import type { TFunction } from "i18next";
import { domainErrorMessage, isDomainError } from "~/lib/domain-error";

export function toRpcError(error: unknown, t: TFunction): unknown {
  if (isDomainError(error)) {
    return new ORPCError(error.code, {
      status: error.status,
      message: domainErrorMessage(error, t),
      data: error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : undefined,
    });
  }
  if (error instanceof ORPCError && error.code === "BAD_REQUEST" && error.message === "Input validation failed") {
    type Issue = { path?: PropertyKey[]; message: string; minimum?: number | bigint; maximum?: number | bigint };
    const issues = (error.data as { issues?: Issue[] } | undefined)?.issues ?? [];
    return new ORPCError("BAD_REQUEST", {
      message: t("errors:invalidInput"),
      // Our schemas carry translation keys as messages; zod's own messages pass through as they are.
      data: {
        issues: issues.map((issue) => ({
          path: (issue.path ?? []).map(String).join("."),
          message: t(`errors:${issue.message}`, { defaultValue: issue.message, min: issue.minimum, max: issue.maximum }),
        })),
      },
    });
  }
  return error;
}
