// Organization logos: uploaded images kept in PostgreSQL (docs/decisions/0022-organization-logos.md).
// The type is decided from the file's bytes (file-type), never from its name or the type the
// client claims; only PNG, JPEG and WebP pass (no SVG: it can carry script). A logo belongs to
// the organization that uploaded it, and the settings accept only such a logo (checked under the
// organization's lock, like the prune below).
import { fileTypeFromBuffer } from "file-type";
import { v4 as uuidv4 } from "uuid";
import type { OrganizationAccess } from "~/access/organization-access.server";
import { prisma } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import { isUuid } from "~/lib/ids";
import { consume } from "~/lib/rate-limit.server";
import { LOGO_MAX_BYTES, LOGO_TYPES } from "./logo-path";
import { lockOrganization } from "~/access/organization-lock.server";

/** Uploads kept per organization besides the one in use: enough to switch back, not a file store. */
const KEPT_UPLOADS = 5;

/** The type the bytes say they are, if it is one we accept. */
export async function sniffLogoType(bytes: Uint8Array): Promise<(typeof LOGO_TYPES)[number] | null> {
  const detected = await fileTypeFromBuffer(bytes).catch(() => undefined);
  const mime = detected?.mime as string | undefined;
  return LOGO_TYPES.find((type) => type === mime) ?? null;
}

/** Stores an upload for the organization; the logo changes only when the settings name it. */
export async function storeLogo(
  access: OrganizationAccess<"organization:update">,
  bytes: Uint8Array,
): Promise<{ id: string; contentType: string }> {
  if (bytes.byteLength === 0) throw new DomainError("BAD_REQUEST", "logo.empty");
  if (bytes.byteLength > LOGO_MAX_BYTES) throw new DomainError("BAD_REQUEST", "logo.tooLarge", { params: { max: LOGO_MAX_BYTES / 1024 } });
  const contentType = await sniffLogoType(bytes);
  if (!contentType) throw new DomainError("BAD_REQUEST", "logo.unsupportedType");
  await consume("logo.organization", access.organization.id);
  const organizationId = access.organization.id;
  const id = uuidv4();
  await prisma.$transaction(async (tx) => {
    // Under the organization's lock, so a settings change that picks an older upload cannot
    // interleave with the prune below, and an organization deleted meanwhile is a 404.
    await lockOrganization(tx, organizationId);
    await tx.organizationLogo.create({
      data: { id, organizationId, contentType, bytes: new Uint8Array(bytes), byteSize: bytes.byteLength, uploadedById: access.user.id },
      select: { id: true },
    });
    // Old uploads that are not the current logo go, so uploads cannot pile up.
    await tx.$executeRaw`
      DELETE FROM organization_logos l
      WHERE l.organization_id = ${organizationId}::uuid
        AND l.id NOT IN (SELECT logo_id FROM organizations WHERE id = ${organizationId}::uuid AND logo_id IS NOT NULL)
        AND l.id NOT IN (SELECT id FROM organization_logos WHERE organization_id = ${organizationId}::uuid
                         ORDER BY created_at DESC, id DESC LIMIT ${KEPT_UPLOADS})`;
  });
  return { id, contentType };
}

/** A logo of this organization, for serving (the caller has checked membership). */
export async function readLogo(access: OrganizationAccess, logoId: string) {
  if (!isUuid(logoId)) return null;
  return prisma.organizationLogo.findUnique({
    where: { organizationId_id: { organizationId: access.organization.id, id: logoId } },
    select: { id: true, contentType: true, bytes: true, byteSize: true },
  });
}
