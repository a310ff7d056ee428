// Building blocks for procedures: a base with translated errors, a session-authenticated base with
// cross-site protection (docs/contract.md: the same rule as the export route), and the same for
// platform admins only. Organization-scoped procedures build on these in organization-procedure.server.ts.
import { os } from "@orpc/server";
import { isCrossSiteRequest } from "~/web/cross-site.server";
import { isFullyAuthenticated } from "~/auth/session.server";
import { DomainError } from "~/lib/domain-error";
import { errorHeaders } from "~/lib/error-headers";
import { asDomainError } from "~/lib/known-errors.server";
import { isUuid } from "~/lib/ids";
import { noteRequest } from "~/lib/logger.server";
import type { RpcContext } from "./context.server";
import { toRpcError } from "./errors.server";

export const base = os.$context<RpcContext>().use(async ({ context, next }) => {
  try {
    return await next();
  } catch (error) {
    // Headers from the same DomainError the answer is made of (a database outage's Retry-After too).
    const domainError = asDomainError(error);
    if (domainError) for (const [name, value] of Object.entries(errorHeaders(domainError))) context.resHeaders?.set(name, value);
    throw toRpcError(error, context.t, domainError);
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

/**
 * Names the procedure's organization in the request's log line. Placed after `.input()`, so it
 * reads the validated input: what a caller sent that failed validation is never logged as an id.
 */
export const noteOrganization = os.$context<RpcContext>().middleware(async ({ context, next }, input: { organizationId: string }) => {
  if (isUuid(input.organizationId)) noteRequest(context.requestLog, { organizationId: input.organizationId });
  return next();
});
