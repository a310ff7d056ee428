// Guards for loaders and actions. Every loader and action calls its own guard: a parent layout's
// check does not protect a child's data, because loaders run in parallel.
import { redirect, type RouterContextProvider } from "react-router";
import { authContext } from "~/context.server";
import { DomainError } from "~/lib/domain-error";
import { orHttpError } from "~/lib/http-errors.server";
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

/** Only same-site relative paths may be redirect targets (no open redirects). */
export function safeRedirectTarget(value: unknown, fallback = "/dashboard"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (value.length > 2048) return fallback;
  return value;
}

function loginRedirect(request: Request, path = "/login") {
  const url = new URL(request.url);
  const target = url.pathname + url.search;
  const query = target === "/" || target.startsWith("/login") ? "" : `?redirectTo=${encodeURIComponent(target)}`;
  return redirect(`${path}${query}`);
}

export function requireUser({ request, context }: GuardArgs): Auth {
  const auth = getAuth(context);
  if (!auth) throw loginRedirect(request);
  if (!isFullyAuthenticated(auth)) throw loginRedirect(request, "/login/two-factor");
  return auth;
}

export function requireAnonymous({ context }: GuardArgs) {
  const auth = getAuth(context);
  if (auth && isFullyAuthenticated(auth)) throw redirect("/dashboard");
}

export async function requireOrgPermission(
  args: GuardArgs,
  organizationId: string,
  permission?: Permission,
): Promise<Auth & OrganizationAccess> {
  const auth = requireUser(args);
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

export async function requirePlatformAdmin(args: GuardArgs, { fresh }: { fresh: boolean }): Promise<Auth> {
  const auth = requireUser(args);
  await orHttpError(args.context, async () => {
    if (!auth.user.isPlatformAdmin) throw new DomainError("FORBIDDEN", "platformAdminRequired");
    if (fresh && !isFresh(auth)) throw new DomainError("FORBIDDEN", "freshSessionRequired");
  });
  return auth;
}
