// Logo upload: POST the image as the body (any Content-Type: the bytes decide) or as the `file`
// field of a multipart form. Answers 201 with {logoId, contentType}; the logo is then set with
// organization.update {logoId} (or the settings page, which uploads and sets it in one go).
import type { Route } from "./+types/api.organizations.$organizationId.logos";
import { authorizeOrganization } from "~/access/organization-access.server";
import { DomainError } from "~/lib/domain-error";
import { storeLogo } from "~/organizations/logos.server";
import { requireApiUser } from "~/web/guards.server";
import { orHttpError } from "~/web/http-errors.server";
import { uploadedBytes } from "~/web/uploads.server";

export async function action(args: Route.ActionArgs) {
  const auth = requireApiUser(args);
  return orHttpError(args.context, async () => {
    const access = await authorizeOrganization(auth, args.params.organizationId, "organization:update");
    const bytes = await uploadedBytes(args.request, "file");
    if (!bytes) throw new DomainError("BAD_REQUEST", "logo.empty");
    const logo = await storeLogo(access, bytes);
    return Response.json({ logoId: logo.id, contentType: logo.contentType }, { status: 201, headers: { "Cache-Control": "no-store" } });
  });
}

/** GET lists nothing: the logos are served one by one at …/logos/:logoId. */
export function loader(args: Route.LoaderArgs) {
  return orHttpError(args.context, () => Promise.reject(new DomainError("NOT_FOUND", "notFound")));
}
