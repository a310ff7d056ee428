// Building blocks for procedures: a base with translated errors, a session-authenticated base with
// cross-site protection (docs/contract.md: the same rule as the export route), and the same for
// platform admins only.
import { os } from "@orpc/server";
import { isCrossSiteRequest } from "~/web/cross-site.server";
import { isFullyAuthenticated } from "~/auth/session.server";
import { DomainError, isDomainError } from "~/lib/domain-error";
import { isUuid } from "~/lib/ids";
import { noteRequest } from "~/lib/logger.server";
import type { RpcContext } from "./context.server";
import { toRpcError } from "./errors.server";

export const base = os.$context<RpcContext>().use(async ({ context, next }, input) => {
  // Every organization-scoped procedure names its organization; the log line says which.
  const organizationId = (input as { organizationId?: unknown } | undefined)?.organizationId;
  if (typeof organizationId === "string" && isUuid(organizationId)) noteRequest(context.requestLog, { organizationId });
  try {
    return await next();
  } catch (error) {
    // A rate limit says when to come back, in the header HTTP clients already understand.
    if (isDomainError(error) && error.retryAfterSeconds !== undefined)
      context.resHeaders?.set("Retry-After", String(error.retryAfterSeconds));
    throw toRpcError(error, context.t);
  }
});

/** Cross-site protection and a fully signed-in session. */
const requireSession = os.$context<RpcContext>().middleware(async ({ context, next }) => {
  if (isCrossSiteRequest(context.headers, context.appOrigin)) throw new DomainError("FORBIDDEN", "crossSite");
  const auth = await context.loadAuth();
  if (!auth || !isFullyAuthenticated(auth)) throw new DomainError("UNAUTHORIZED", "unauthenticated");
  return next({ context: { auth } });
});

export const sessionProcedure = base.use(requireSession);

/**
 * For a namespace that does not exist (404) for anyone but platform admins, signed in or not,
 * whatever they send: decided before anything else, then the session's checks as above.
 */
export const platformAdminProcedure = base
  .use(async ({ context, next }) => {
    if (!(await context.loadAuth())?.user.isPlatformAdmin) throw new DomainError("NOT_FOUND", "notFound");
    return next();
  })
  .use(requireSession);
