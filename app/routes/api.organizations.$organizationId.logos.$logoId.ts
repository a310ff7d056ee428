// Serves an organization's logo to its members. The stored type was decided from the bytes at
// upload; the headers keep a browser from reading the file as anything else (nosniff, a sandbox
// CSP, no cross-origin use). Ids never change content, so members may cache a logo for long.
import type { Route } from "./+types/api.organizations.$organizationId.logos.$logoId";
import { authorizeOrganization } from "~/access/organization-access.server";
import { isDomainError } from "~/lib/domain-error";
import { readLogo } from "~/organizations/logos.server";
import { getAuth } from "~/web/guards.server";
import { isFullyAuthenticated } from "~/auth/session.server";

const notFound = () =>
  new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export async function loader(args: Route.LoaderArgs) {
  const auth = getAuth(args.context);
  // Anyone who is not a member learns nothing, not even whether the organization exists.
  if (!auth || !isFullyAuthenticated(auth)) return notFound();
  const access = await authorizeOrganization(auth, args.params.organizationId, undefined, { requireActive: false }).catch(
    (error: unknown) => {
      if (isDomainError(error)) return null;
      throw error;
    },
  );
  const logo = access ? await readLogo(access, args.params.logoId) : null;
  if (!logo) return notFound();
  return new Response(new Uint8Array(logo.bytes), {
    headers: {
      "Content-Type": logo.contentType,
      "Content-Length": String(logo.byteSize),
      "Content-Disposition": `inline; filename="logo.${logo.contentType.slice("image/".length)}"`,
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "X-Content-Type-Options": "nosniff",
      "Cross-Origin-Resource-Policy": "same-origin",
      "Cache-Control": "private, max-age=31536000, immutable",
    },
  });
}
