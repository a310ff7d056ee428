// Which failures the caller is told about in words, in one place for pages, actions and /rpc.
import { isVanishedReference } from "~/db.server";
import { DomainError, isDomainError } from "./domain-error";

/**
 * A failure as the DomainError the caller should see, or null for a real fault (logged, 500).
 * Besides the domain's own refusals, a write whose referenced row vanished between the request's
 * checks and its write (Prisma's P2003 or P2025) is a conflict: someone deleted it meanwhile, most
 * often the same person in another tab (the account deleted while an organization was being
 * created). Nothing was written: the statement failed, so its transaction rolled back.
 */
export function asDomainError(error: unknown): DomainError | null {
  if (isDomainError(error)) return error;
  if (isVanishedReference(error)) return new DomainError("CONFLICT", "changedMeanwhile");
  return null;
}
