// Guards for loaders and actions. Every loader and action calls its own guard: a parent layout's
// check does not protect a child's data, because loaders run in parallel.
import { redirect, type RouterContextProvider } from "react-router";
import { authContext, requestLogContext } from "~/context.server";
import { noteRequest } from "~/lib/logger.server";
import { DomainError } from "~/lib/domain-error";
import { orHttpError } from "~/lib/http-errors.server";
import { signInHref } from "~/lib/safe-redirect";
import { authorizeOrganization, type OrganizationAccess } from "~/organizations/access.server";
import type { Permission } from "~/organizations/permissions";
import { isFresh, isFullyAuthenticated, type Auth } from "./session.server";

interface GuardArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

export function getAuth(context: Readonly<RouterContextProvider>): Auth | null {
  return context.get(authContext);
}

function loginRedirect(request: Request, page = "/login") {
  const url = new URL(request.url);
  return redirect(signInHref(url.pathname + url.search, page));
}

export function requireUser({ request, context }: GuardArgs): Auth {
  const auth = getAuth(context);
  if (!auth) throw loginRedirect(request);
  if (!isFullyAuthenticated(auth)) throw loginRedirect(request, "/login/two-factor");
  return auth;
}

/** The sign-in page is for signed-out people, and for anyone asked to sign in again on the way
 * to a page (a `redirectTo`, e.g. from "Please sign in again"): signing in replaces the session. */
export function requireAnonymous({ request, context }: GuardArgs) {
  const auth = getAuth(context);
  if (auth && isFullyAuthenticated(auth) && !new URL(request.url).searchParams.has("redirectTo")) throw redirect("/dashboard");
}

export async function requireOrgPermission(
  args: GuardArgs,
  organizationId: string,
  permission?: Permission,
): Promise<Auth & OrganizationAccess> {
  const auth = requireUser(args);
  noteRequest(args.context.get(requestLogContext), { organizationId });
  const access = await orHttpError(args.context, () => authorizeOrganization(auth, organizationId, permission));
  return { ...auth, ...access };
}

/** For pages that act on "the active organization" (the dashboard tree). */
export async function requireActiveOrgPermission(args: GuardArgs, permission?: Permission) {
  const auth = requireUser(args);
  const organizationId = auth.session.activeOrganizationId;
  if (!organizationId) throw redirect("/dashboard");
  return requireOrgPermission(args, organizationId, permission);
}

/** The admin tree answers 404 to anyone who is not a platform admin, signed in or not: it does not
 * exist for them. A platform admin halfway through sign-in finishes the second step first. */
export async function requirePlatformAdmin(args: GuardArgs, { fresh }: { fresh: boolean }): Promise<Auth> {
  const auth = getAuth(args.context);
  return orHttpError(args.context, async () => {
    if (!auth?.user.isPlatformAdmin) throw new DomainError("NOT_FOUND", "notFound");
    if (!isFullyAuthenticated(auth)) throw loginRedirect(args.request, "/login/two-factor");
    if (fresh && !isFresh(auth)) throw new DomainError("FORBIDDEN", "freshSessionRequired");
    return auth;
  });
}
