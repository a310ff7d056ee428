// Settings (name, slug, logo, two-factor rule) and deleting an organization, on real PostgreSQL.
import { describe, expect, it } from "vitest";
import { authorizeOrganization } from "~/access/organization-access.server";
import { prisma } from "~/db.server";
import { storeLogo, sniffLogoType } from "~/organizations/logos.server";
import { deleteOrganization, updateOrganizationSettings } from "~/organizations/organizations.server";
import { slugSchema } from "~/organizations/schemas";
import { createOrganizationWith, createUser, signedIn } from "../factories";
import { IMAGES } from "../images";
import { call } from "../rpc";
import { failure } from "../failure";
import { queryOnce } from "../../scripts/lib/pg-client";

async function owned(role: "owner" | "admin" = "owner") {
  const user = await createUser();
  const org = await createOrganizationWith([{ userId: user.id, role }]);
  const { auth, token } = await signedIn(user.id, org.id);
  const updater = () => authorizeOrganization(auth, org.id, "organization:update");
  return { user, org, auth, token, updater };
}

const settingsEvents = (organizationId: string) =>
  prisma.auditEvent.findMany({ where: { organizationId, action: "organization.settings_changed" }, orderBy: { id: "asc" } });

describe("slugs", () => {
  it("accepts lowercase letters, digits and single hyphens, and lower-cases what it gets", () => {
    expect(slugSchema.parse("  Acme-Corp-42 ")).toBe("acme-corp-42");
    for (const bad of [
      "ab",
      "-acme",
      "acme-",
      "ac me",
      "acme_corp",
      "acme--corp",
      "ácme",
      "a".repeat(49),
      "acme\u0000",
      "acme/..",
      "ａｃｍｅ",
    ]) {
      expect(slugSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it("refuses reserved words, with their own message", () => {
    for (const reserved of ["admin", "API", "dashboard", "settings", "support", "www", "keyledger"]) {
      const result = slugSchema.safeParse(reserved);
      expect(result.success, reserved).toBe(false);
      expect(result.error?.issues[0]?.message).toBe("field.slugReserved");
    }
  });

  it("organization.update refuses a clashing, reserved or malformed slug with no change and no event", async () => {
    const { org, token } = await owned();
    const other = await createOrganizationWith([]);
    for (const [slug, status] of [
      [other.slug, 409],
      [other.slug.toUpperCase(), 409],
      ["admin", 400],
      ["no spaces", 400],
    ] as const) {
      const answer = await call("organization/update", token, { organizationId: org.id, slug });
      expect(answer.status, slug).toBe(status);
    }
    expect((await prisma.organization.findUniqueOrThrow({ where: { id: org.id } })).slug).toBe(org.slug);
    expect(await settingsEvents(org.id)).toHaveLength(0);
  });

  it("records a slug change with its previous value; only what was sent changes", async () => {
    const { org, token, user } = await owned();
    const answer = await call("organization/update", token, { organizationId: org.id, slug: `renamed-${Date.now()}` });
    expect(answer.status).toBe(200);
    const [event] = await settingsEvents(org.id);
    expect(event!.details).toEqual({ slug: { from: org.slug, to: (answer.json as { slug: string }).slug } });
    expect(event).toMatchObject({ actorId: user.id, targetId: org.id });
    expect((await prisma.organization.findUniqueOrThrow({ where: { id: org.id } })).name).toBe(org.name);
  });
});

describe("the two-factor requirement", () => {
  it("says to enable two-factor for yourself first, and changes nothing", async () => {
    const { org, updater } = await owned();
    expect(await failure(updateOrganizationSettings(await updater(), { requireTwoFactor: true }))).toMatchObject({
      code: "CONFLICT",
      messageKey: "organization.enableTwoFactorFirst",
    });
    expect((await prisma.organization.findUniqueOrThrow({ where: { id: org.id } })).requireTwoFactor).toBe(false);
  });
});

describe("logos", () => {
  it("decides the type from the bytes: PNG, JPEG and WebP pass; GIF, SVG, HTML and broken files do not", async () => {
    expect(await sniffLogoType(IMAGES.png)).toBe("image/png");
    expect(await sniffLogoType(IMAGES.jpeg)).toBe("image/jpeg");
    expect(await sniffLogoType(IMAGES.webp)).toBe("image/webp");
    for (const bad of [IMAGES.gif, IMAGES.svg, IMAGES.html, IMAGES.truncatedPng, Buffer.alloc(0), Buffer.from("PNG")]) {
      expect(await sniffLogoType(bad)).toBeNull();
    }
  });

  it("stores an upload, sets it with one event, and removing it records the change back", async () => {
    const { org, updater } = await owned();
    const logo = await storeLogo(await updater(), IMAGES.png);
    expect(logo.contentType).toBe("image/png");
    expect(await settingsEvents(org.id)).toHaveLength(0);
    await updateOrganizationSettings(await updater(), { logoId: logo.id });
    await updateOrganizationSettings(await updater(), { logoId: logo.id });
    await updateOrganizationSettings(await updater(), { logoId: null });
    expect((await settingsEvents(org.id)).map((e) => e.details)).toEqual([
      { logo: { from: null, to: logo.id } },
      { logo: { from: logo.id, to: null } },
    ]);
    const stored = await prisma.organizationLogo.findUniqueOrThrow({
      where: { organizationId_id: { organizationId: org.id, id: logo.id } },
    });
    expect(Buffer.from(stored.bytes)).toEqual(IMAGES.png);
  });

  it("refuses files that are not images, lie about their type, or are too large; nothing is stored", async () => {
    const { org, updater } = await owned();
    for (const bytes of [IMAGES.svg, IMAGES.html, IMAGES.gif, Buffer.alloc(0)]) {
      expect((await failure(storeLogo(await updater(), bytes))).code).toBe("BAD_REQUEST");
    }
    const tooLarge = Buffer.concat([IMAGES.png, Buffer.alloc(512 * 1024)]);
    expect(await failure(storeLogo(await updater(), tooLarge))).toMatchObject({ messageKey: "logo.tooLarge" });
    expect(await prisma.organizationLogo.count({ where: { organizationId: org.id } })).toBe(0);
  });

  it("an organization can only set a logo it uploaded (404, the same as any id of another organization)", async () => {
    const mine = await owned();
    const theirs = await owned();
    const their = await storeLogo(await theirs.updater(), IMAGES.webp);
    expect(await failure(updateOrganizationSettings(await mine.updater(), { logoId: their.id }))).toMatchObject({
      code: "NOT_FOUND",
      messageKey: "organization.logoNotFound",
    });
    const viaRpc = await call("organization/update", mine.token, { organizationId: mine.org.id, logoId: their.id });
    expect(viaRpc.status).toBe(404);
    expect((await call("organization/update", mine.token, { organizationId: mine.org.id, logoId: "not-a-uuid" })).status).toBe(400);
    expect((await prisma.organization.findUniqueOrThrow({ where: { id: mine.org.id } })).logoId).toBeNull();
    expect(await settingsEvents(mine.org.id)).toHaveLength(0);
  });

  it("keeps only a few unused uploads per organization, and never the one in use", async () => {
    const { org, updater } = await owned();
    const first = await storeLogo(await updater(), IMAGES.png);
    await updateOrganizationSettings(await updater(), { logoId: first.id });
    for (let i = 0; i < 8; i++) await storeLogo(await updater(), IMAGES.jpeg);
    const kept = await prisma.organizationLogo.findMany({ where: { organizationId: org.id }, select: { id: true } });
    expect(kept.length).toBe(6);
    expect(kept.map((k) => k.id)).toContain(first.id);
  });

  it("members without organization:update cannot upload or set logos", async () => {
    const { org } = await owned();
    const member = await createUser();
    await prisma.membership.create({ data: { organizationId: org.id, userId: member.id, role: "member" } });
    const { auth, token } = await signedIn(member.id, org.id);
    await expect(authorizeOrganization(auth, org.id, "organization:update")).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await call("organization/update", token, { organizationId: org.id, name: "Taken over" })).status).toBe(403);
  });
});

describe("deleting an organization", () => {
  async function populated() {
    const context = await owned();
    const admin = await createUser();
    await prisma.membership.create({ data: { organizationId: context.org.id, userId: admin.id, role: "admin" } });
    const elsewhere = await createOrganizationWith([{ userId: admin.id, role: "member" }]);
    const adminSession = await signedIn(admin.id, context.org.id);
    await updateOrganizationSettings(await context.updater(), { name: "To be deleted" });
    await storeLogo(await context.updater(), IMAGES.png);
    await prisma.invitation.create({
      data: { organizationId: context.org.id, email: "pending@example.com", role: "member", expiresAt: new Date(Date.now() + 60_000) },
    });
    return { ...context, admin, adminSession, elsewhere };
  }

  it("needs the owner, a fresh session and the exact name; refusals change nothing", async () => {
    const { org, token, adminSession, auth } = await populated();
    expect((await call("organization/delete", adminSession.token, { organizationId: org.id, confirmName: "To be deleted" })).status).toBe(
      403,
    );
    expect((await call("organization/delete", token, { organizationId: org.id, confirmName: "to be deleted" })).status).toBe(400);
    expect((await call("organization/delete", token, { organizationId: org.id })).status).toBe(400);
    const stale = { ...auth, session: { ...auth.session, authenticatedAt: new Date(Date.now() - 60 * 60 * 1000) } };
    const access = await authorizeOrganization(auth, org.id, "organization:delete");
    expect(await failure(deleteOrganization(access, stale, "To be deleted"))).toMatchObject({
      code: "FORBIDDEN",
      messageKey: "freshSessionRequired",
    });
    expect(await prisma.organization.count({ where: { id: org.id } })).toBe(1);
  });

  it("deletes keys, invitations, memberships, logos and the audit log, records nothing, and moves sessions elsewhere", async () => {
    const { org, token, adminSession, elsewhere } = await populated();
    expect(await prisma.auditEvent.count({ where: { organizationId: org.id } })).toBeGreaterThan(0);
    const answer = await call("organization/delete", token, { organizationId: org.id, confirmName: " To be deleted " });
    expect(answer).toMatchObject({ status: 200, json: {} });
    for (const count of [
      prisma.organization.count({ where: { id: org.id } }),
      prisma.membership.count({ where: { organizationId: org.id } }),
      prisma.invitation.count({ where: { organizationId: org.id } }),
      prisma.organizationLogo.count({ where: { organizationId: org.id } }),
      prisma.apiKey.count({ where: { organizationId: org.id } }),
      prisma.auditEvent.count({ where: { organizationId: org.id } }),
    ])
      expect(await count).toBe(0);
    // Read as the tables' owner: a count across organizations (tests/statements holds the app's role to naming one).
    const { rows } = await queryOnce<{ here: string }>(
      process.env.DATABASE_URL!,
      "SELECT count(*) AS here FROM audit_events WHERE organization_id = $1",
      [org.id],
    );
    expect(Number(rows[0]!.here)).toBe(0);
    const session = await prisma.session.findUniqueOrThrow({ where: { id: adminSession.auth.session.id } });
    expect(session.activeOrganizationId).toBe(elsewhere.id);
    expect((await call("organization/members", token, { organizationId: org.id })).status).toBe(404);
  });
});
