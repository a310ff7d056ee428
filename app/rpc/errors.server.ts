// DomainError → oRPC error, in one place; also translates oRPC's own input errors.
import { ORPCError } from "@orpc/server";
import { isErrorKey } from "~/i18n/error-keys";
import type { Translate } from "~/i18n/keys";
import { domainErrorMessage } from "~/lib/domain-error";
import type { ErrorKey } from "~/lib/error-key";
import { asDomainError } from "~/lib/known-errors.server";

/** `domainError`: what asDomainError made of `error`, when the caller has it already. */
export function toRpcError(error: unknown, t: Translate, domainError = asDomainError(error)): unknown {
  if (domainError) {
    return new ORPCError(domainError.code, {
      status: domainError.status,
      message: domainErrorMessage(domainError, t),
      data: domainError.retryAfterSeconds !== undefined ? { retryAfterSeconds: domainError.retryAfterSeconds } : undefined,
      // What it was, for the log (a database outage is noted as such, app/rpc/handler.server.ts).
      cause: error,
    });
  }
  if (error instanceof ORPCError && error.code === "BAD_REQUEST" && error.message === "Input validation failed") {
    const issues = (error.data as { issues?: ValidationIssue[] } | undefined)?.issues ?? [];
    return new ORPCError("BAD_REQUEST", {
      message: t("errors:invalidInput"),
      // The first few issues say what is wrong; thousands would only make the answer huge.
      data: {
        issues: issues
          .slice(0, MAX_REPORTED_ISSUES)
          .flatMap((issue) => translateIssue(issue, t))
          .slice(0, MAX_REPORTED_ISSUES),
      },
    });
  }
  return error;
}

const MAX_REPORTED_ISSUES = 20;

/** A validation issue as zod reports it through oRPC. */
interface ValidationIssue {
  path?: PropertyKey[];
  message: string;
  code?: string;
  keys?: string[];
  minimum?: number | bigint;
  maximum?: number | bigint;
}

/** zod's own issue codes, for issues whose message is zod's (English) text rather than our key. */
const ZOD_CODE_KEYS: Partial<Record<string, ErrorKey>> = {
  invalid_type: "field.invalidType",
  invalid_value: "field.invalidChoice",
  unrecognized_keys: "field.unexpected",
};

/**
 * Our schemas carry translation keys as messages; those are translated. zod's own messages can
 * quote the caller's input ('Unrecognized key: "…"'), so they never reach i18next (which would
 * run a `$t(…)` inside them as a nested lookup with options): they are worded by issue code.
 * An unexpected field is reported at its own path.
 */
function translateIssue(issue: ValidationIssue, t: Translate): { path: string; message: string }[] {
  const path = (issue.path ?? []).map(String);
  if (isErrorKey(issue.message)) {
    return [{ path: path.join("."), message: t(`errors:${issue.message}`, { min: issue.minimum, max: issue.maximum }) }];
  }
  const message = t(`errors:${ZOD_CODE_KEYS[issue.code ?? ""] ?? "field.invalid"}`);
  if (issue.code === "unrecognized_keys" && issue.keys?.length)
    return issue.keys.map((key) => ({ path: [...path, key].join("."), message }));
  return [{ path: path.join("."), message }];
}
