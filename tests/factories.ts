// Test data builders that go through the real domain code and database.
import { randomUUID } from "node:crypto";
import { prisma } from "~/db.server";
import { hashPassword } from "~/auth/password.server";
import { createSession, validateSessionToken, type Auth } from "~/auth/session.server";
import type { Prisma } from "~/generated/prisma/client";
import type { Role } from "~/generated/prisma/enums";

export const TEST_PASSWORD = "a-long-enough-password";
let cachedHash: Promise<string> | undefined;

/** A fixed TOTP key for users created with `twoFactor: true` (tests compute codes from it). */
export const TEST_TOTP_KEY = new Uint8Array(20).fill(7);

/** A user whose address is verified unless `verified: false` (a new sign-up that has not opened its link yet). */
export async function createUser(
  overrides: { email?: string; name?: string; isPlatformAdmin?: boolean; twoFactor?: boolean; verified?: boolean } = {},
) {
  cachedHash ??= hashPassword(TEST_PASSWORD);
  // Platform admins need two-factor: they get it unless a test says otherwise.
  const twoFactor = overrides.twoFactor ?? overrides.isPlatformAdmin ?? false;
  return prisma.user.create({
    data: {
      email: overrides.email ?? `user-${randomUUID()}@example.test`,
      name: overrides.name ?? "Test User",
      passwordHash: await cachedHash,
      isPlatformAdmin: overrides.isPlatformAdmin ?? false,
      emailVerifiedAt: overrides.verified === false ? null : new Date(),
      ...(twoFactor ? { totpKey: Buffer.from(TEST_TOTP_KEY), twoFactorEnabledAt: new Date() } : {}),
    },
    select: { id: true, email: true, name: true },
  });
}

export async function createOrganizationWith(
  members: { userId: string; role: Role }[],
  overrides: { planId?: string; requireTwoFactor?: boolean } = {},
) {
  // The slug's lookup row with it, as the app writes them (decision 0050).
  const [id, slug] = [randomUUID(), `org-${randomUUID().slice(0, 12)}`];
  await prisma.organizationSlug.create({ data: { slug, organizationId: id } });
  const organization = await prisma.organization.create({
    data: {
      id,
      name: `Org ${randomUUID().slice(0, 8)}`,
      slug,
      planId: overrides.planId ?? "free",
      requireTwoFactor: overrides.requireTwoFactor ?? false,
    },
    select: { id: true, name: true, slug: true },
  });
  for (const member of members) {
    await prisma.membership.create({ data: { organizationId: organization.id, userId: member.userId, role: member.role } });
  }
  return organization;
}

/** An invitation whose link works (its token's hash set), with the hash's lookup row as the app writes it (decision 0050). */
export async function createInvitationWithLink(data: Prisma.InvitationUncheckedCreateInput & { tokenHash: Uint8Array<ArrayBuffer> }) {
  const invitation = await prisma.invitation.create({ data, select: { id: true, organizationId: true } });
  await prisma.invitationToken.create({
    data: { tokenHash: data.tokenHash, organizationId: invitation.organizationId, invitationId: invitation.id },
  });
  return invitation;
}

/** A platform admin (two-factor enrolled), signed in with both factors just now. */
export async function signedInPlatformAdmin(overrides: { name?: string; email?: string } = {}) {
  const user = await createUser({ ...overrides, isPlatformAdmin: true });
  return { user, ...(await signedIn(user.id, null, { twoFactorVerified: true })) };
}

/** A signed-in session (token and Auth) for a user, optionally with an active organization. */
export async function signedIn(
  userId: string,
  activeOrganizationId: string | null = null,
  { twoFactorVerified = false }: { twoFactorVerified?: boolean } = {},
): Promise<{ token: string; auth: Auth }> {
  const { token } = await createSession(userId, { twoFactorVerified, activeOrganizationId });
  const auth = await validateSessionToken(token);
  if (!auth) throw new Error("session did not validate");
  return { token, auth };
}
