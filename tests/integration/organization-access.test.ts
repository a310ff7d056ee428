import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { prisma } from "~/db.server";
import { authorizeOrganization } from "~/access/organization-access.server";
import { createOrganization, switchActiveOrganization } from "~/organizations/organizations.server";
import { updateOrganizationSettings } from "../domain-calls";
import { planHas, PLANS } from "~/plans/catalog";
import { createOrganizationWith, createUser, signedIn } from "../factories";
import { failure } from "../failure";

describe("organization access", () => {
  it("answers 404 for an organization that does not exist or a malformed id", async () => {
    const user = await createUser();
    const { auth } = await signedIn(user.id);
    expect(await failure(authorizeOrganization(auth, randomUUID()))).toMatchObject({
      code: "NOT_FOUND",
      messageKey: "organizationNotFound",
    });
    expect((await failure(authorizeOrganization(auth, "not-a-uuid"))).code).toBe("NOT_FOUND");
    expect((await failure(authorizeOrganization(auth, "' OR 1=1 --"))).code).toBe("NOT_FOUND");
  });

  it("answers 403 to a non-member", async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const org = await createOrganizationWith([{ userId: owner.id, role: "owner" }]);
    const { auth } = await signedIn(stranger.id);
    expect(await failure(authorizeOrganization(auth, org.id))).toMatchObject({ code: "FORBIDDEN", messageKey: "notAMember" });
  });

  it("reads an organization id in capitals as the same id (UUIDs are case-insensitive), not as someone else's", async () => {
    const user = await createUser();
    const org = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
    const { auth } = await signedIn(user.id, org.id);
    await expect(authorizeOrganization(auth, org.id.toUpperCase(), "audit:view")).resolves.toMatchObject({
      role: "owner",
      organization: { id: org.id },
    });
  });

  it("requires the organization to be the session's active one", async () => {
    const user = await createUser();
    const org = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
    const { auth } = await signedIn(user.id, null);
    expect((await failure(authorizeOrganization(auth, org.id))).messageKey).toBe("notActiveOrganization");
    await switchActiveOrganization(auth, org.id);
    await expect(authorizeOrganization(auth, org.id, "audit:view")).resolves.toMatchObject({ role: "owner" });
  });

  it("grants audit:view and key management to owners and admins, not members", async () => {
    const [owner, admin, member] = await Promise.all([createUser(), createUser(), createUser()]);
    const org = await createOrganizationWith([
      { userId: owner.id, role: "owner" },
      { userId: admin.id, role: "admin" },
      { userId: member.id, role: "member" },
    ]);
    for (const [user, allowed] of [
      [owner, true],
      [admin, true],
      [member, false],
    ] as const) {
      const { auth } = await signedIn(user.id, org.id);
      for (const permission of ["audit:view", "apiKey:manage"] as const) {
        const result = authorizeOrganization(auth, org.id, permission);
        if (allowed) await expect(result).resolves.toBeTruthy();
        else expect(await failure(result)).toMatchObject({ code: "FORBIDDEN", messageKey: "missingPermission" });
      }
    }
  });

  it("enforces the organization's two-factor requirement", async () => {
    const user = await createUser();
    const org = await createOrganizationWith([{ userId: user.id, role: "owner" }], { requireTwoFactor: true });
    const { auth } = await signedIn(user.id, org.id);
    expect((await failure(authorizeOrganization(auth, org.id))).messageKey).toBe("twoFactorRequiredByOrganization");
    auth.user.twoFactorEnabled = true;
    await expect(authorizeOrganization(auth, org.id)).resolves.toBeTruthy();
  });

  it("will not let an owner without 2FA require it (they would lock themselves out)", async () => {
    const user = await createUser();
    const { auth } = await signedIn(user.id);
    const org = await createOrganization(auth, { name: "Lockout Inc" });
    const settings = { name: "Lockout Inc", slug: org.slug, requireTwoFactor: true };
    expect((await failure(updateOrganizationSettings(auth, org.id, settings))).code).toBe("CONFLICT");
    expect((await prisma.organization.findUniqueOrThrow({ where: { id: org.id } })).requireTwoFactor).toBe(false);
  });
});

describe("organizations", () => {
  it("makes the creator owner, activates the new organization and records its creation", async () => {
    const user = await createUser();
    const { auth } = await signedIn(user.id);
    const org = await createOrganization(auth, { name: "Initech GmbH & Co." });
    expect(org).toMatchObject({ role: "owner", slug: "initech-gmbh-co" });
    const events = await prisma.auditEvent.findMany({ where: { organizationId: org.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: "organization.created",
      actorKind: "user",
      actorId: user.id,
      targetType: "organization",
      targetId: org.id,
    });
    expect(events[0]!.details).toEqual({ name: "Initech GmbH & Co.", slug: "initech-gmbh-co" });
    expect((await prisma.session.findUniqueOrThrow({ where: { id: auth.session.id } })).activeOrganizationId).toBe(org.id);
  });

  it("refuses a slug in use with CONFLICT", async () => {
    const user = await createUser();
    const { auth } = await signedIn(user.id);
    await createOrganization(auth, { name: "Dup", slug: "dup-slug" });
    expect((await failure(createOrganization(auth, { name: "Dup 2", slug: "dup-slug" }))).messageKey).toBe("slugTaken");
  });

  it("gives a slug derived from a taken name a suffix instead of refusing it", async () => {
    const user = await createUser();
    const { auth } = await signedIn(user.id);
    const first = await createOrganization(auth, { name: "Same Name Ltd" });
    const second = await createOrganization(auth, { name: "Same Name Ltd" });
    expect(first.slug).toBe("same-name-ltd");
    expect(second.slug).toMatch(/^same-name-ltd-[0-9a-f]{6}$/);
  });

  it("switching to an organization one does not belong to is refused and changes nothing", async () => {
    const user = await createUser();
    const other = await createUser();
    const mine = await createOrganizationWith([{ userId: user.id, role: "member" }]);
    const theirs = await createOrganizationWith([{ userId: other.id, role: "owner" }]);
    const { auth } = await signedIn(user.id, mine.id);
    expect((await failure(switchActiveOrganization(auth, theirs.id))).code).toBe("FORBIDDEN");
    expect((await failure(switchActiveOrganization(auth, randomUUID()))).code).toBe("NOT_FOUND");
    expect((await prisma.session.findUniqueOrThrow({ where: { id: auth.session.id } })).activeOrganizationId).toBe(mine.id);
  });
});

describe("plan catalog", () => {
  it("turns auditExport on for Enterprise only", () => {
    expect(
      Object.entries(PLANS)
        .filter(([, plan]) => plan.flags.auditExport)
        .map(([id]) => id),
    ).toEqual(["enterprise"]);
    expect(planHas("enterprise", "auditExport")).toBe(true);
    expect(planHas("team", "auditExport")).toBe(false);
    expect(planHas("no-such-plan", "auditExport")).toBe(false);
  });
});

describe("organization settings are audited", () => {
  it("records what changed, with the previous values, and nothing for an unchanged submission", async () => {
    const user = await createUser();
    const { auth } = await signedIn(user.id);
    const org = await createOrganization(auth, { name: "Before" });
    const base = { name: "Before", slug: org.slug, requireTwoFactor: false };
    const settingsEvents = () => prisma.auditEvent.count({ where: { organizationId: org.id, action: "organization.settings_changed" } });
    await updateOrganizationSettings(auth, org.id, base);
    expect(await settingsEvents()).toBe(0);
    await updateOrganizationSettings(auth, org.id, { ...base, name: "After", slug: `${org.slug}-x` });
    await updateOrganizationSettings(auth, org.id, { ...base, name: "Before", slug: `${org.slug}-x` });
    const events = await prisma.auditEvent.findMany({
      where: { organizationId: org.id, action: "organization.settings_changed" },
      orderBy: { id: "asc" },
    });
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ actorKind: "user", actorId: user.id, targetType: "organization", targetId: org.id });
    expect(events[0]!.details).toEqual({
      name: { from: "Before", to: "After" },
      slug: { from: org.slug, to: `${org.slug}-x` },
    });
    expect(events[1]!.details).toEqual({ name: { from: "After", to: "Before" } });
  });

  it("records nothing when the change is refused", async () => {
    const user = await createUser();
    const { auth } = await signedIn(user.id);
    const first = await createOrganization(auth, { name: "Taken", slug: "taken-slug" });
    const second = await createOrganization(auth, { name: "Second" });
    await failure(updateOrganizationSettings(auth, second.id, { name: "Second", slug: "taken-slug", requireTwoFactor: false }));
    expect(
      await prisma.auditEvent.count({ where: { organizationId: { in: [first.id, second.id] }, action: "organization.settings_changed" } }),
    ).toBe(0);
  });
});
