// Guards for loaders and actions. Every loader and action calls its own guard: a parent layout's
// check does not protect a child's data, because loaders run in parallel.
import { href, redirect, type RouterContextProvider } from "react-router";
import { authContext, requestLogContext } from "~/web/context.server";
import { noteRequest } from "~/lib/logger.server";
import { DomainError, isDomainError } from "~/lib/domain-error";
import { httpErrorOf, orHttpError } from "~/web/http-errors.server";
import { signInHref } from "~/lib/safe-redirect";
import {
  authorizeOrganization,
  authorizePlatformAdmin,
  findSupportTarget,
  type OrganizationAccess,
  type PlatformAdminAccess,
  type SupportTarget,
} from "~/access/organization-access.server";
import type { Permission } from "~/access/permissions";
import { isFullyAuthenticated, type Auth } from "~/auth/session.server";

interface GuardArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

export function getAuth(context: Readonly<RouterContextProvider>): Auth | null {
  return context.get(authContext);
}

function loginRedirect(request: Request, page = href("/login")) {
  const url = new URL(request.url);
  return redirect(signInHref(url.pathname + url.search, page));
}

export function requireUser({ request, context }: GuardArgs): Auth {
  const auth = getAuth(context);
  if (!auth) throw loginRedirect(request);
  if (!isFullyAuthenticated(auth)) throw loginRedirect(request, href("/login/two-factor"));
  return auth;
}

/** For endpoints that programs call (uploads): no redirect to a page, a 401 in the caller's language. */
export function requireApiUser({ context }: GuardArgs): Auth {
  const auth = getAuth(context);
  if (!auth || !isFullyAuthenticated(auth)) throw httpErrorOf(context, new DomainError("UNAUTHORIZED", "unauthenticated"));
  return auth;
}

/** The sign-in page is for signed-out people, and for anyone asked to sign in again on the way
 * to a page (a `redirectTo`, e.g. from "Please sign in again"): signing in replaces the session. */
export function requireAnonymous({ request, context }: GuardArgs) {
  const auth = getAuth(context);
  if (auth && isFullyAuthenticated(auth) && !new URL(request.url).searchParams.has("redirectTo")) throw redirect(href("/dashboard"));
}

/** The session's active organization, with the caller's access to it proven (404/403 otherwise).
 * Without an active organization the dashboard asks the user to pick or create one. Like the
 * check itself, two signatures: no permission named proves membership only. */
export async function requireActiveOrganization(args: GuardArgs): Promise<OrganizationAccess>;
export async function requireActiveOrganization<P extends Permission>(args: GuardArgs, permission: P): Promise<OrganizationAccess<P>>;
export async function requireActiveOrganization(args: GuardArgs, permission?: Permission): Promise<OrganizationAccess> {
  const auth = requireUser(args);
  const organizationId = auth.session.activeOrganizationId;
  if (!organizationId) throw redirect(href("/dashboard"));
  noteRequest(args.context.get(requestLogContext), { organizationId });
  return orHttpError(args.context, () =>
    permission ? authorizeOrganization(auth, organizationId, permission) : authorizeOrganization(auth, organizationId),
  );
}

/**
 * The admin tree answers 404 to anyone who is not a platform admin, signed in or not: it does not
 * exist for them. A platform admin halfway through sign-in finishes the second step first; one
 * whose session is not fresh enough signs in again (password and second factor) and comes back to
 * the page; one without two-factor is told to enable it (403).
 */
export async function requirePlatformAdmin(args: GuardArgs, { fresh }: { fresh: boolean }): Promise<PlatformAdminAccess> {
  const auth = getAuth(args.context);
  return orHttpError(args.context, async () => {
    if (!auth?.user.isPlatformAdmin) throw new DomainError("NOT_FOUND", "notFound");
    if (!isFullyAuthenticated(auth)) throw loginRedirect(args.request, href("/login/two-factor"));
    try {
      return authorizePlatformAdmin(auth, { fresh });
    } catch (error) {
      if (isDomainError(error) && error.messageKey === "freshSessionRequired") throw loginRedirect(args.request);
      throw error;
    }
  });
}

/** A fresh platform admin and one existing organization, with the support grant this session
 * holds for it, if any (no membership involved). */
export async function requireSupportTarget(args: GuardArgs, organizationId: string): Promise<SupportTarget> {
  const admin = await requirePlatformAdmin(args, { fresh: true });
  noteRequest(args.context.get(requestLogContext), { organizationId });
  return orHttpError(args.context, () => findSupportTarget(admin, organizationId));
}
