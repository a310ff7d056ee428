// Members, invitations and logos over real HTTP on the production server: the logo upload and
// its serving headers, the members and accept pages without JavaScript, and their refusals.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/auth/session.server";
import { prisma } from "~/db.server";
import { newInvitationToken } from "~/organizations/invitation-acceptance.server";
import { seedDemoData } from "../../prisma/seed.ts";
import { IMAGES } from "../images";
import { createInvitationWithLink } from "../factories";
import { startProductionServer, type ProductionServer } from "./production-server.ts";

let server: ProductionServer;
const ids = { acme: "", globex: "" };
const cookies = { owner: "", member: "", globexOwner: "" };

async function sessionOf(email: string, organizationId: string) {
  const user = await prisma.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
  return `session=${(await createSession(user.id, { twoFactorVerified: false, activeOrganizationId: organizationId })).token}`;
}

beforeAll(async () => {
  await seedDemoData(process.env.DATABASE_URL!);
  ids.acme = (await prisma.organizationSlug.findUniqueOrThrow({ where: { slug: "acme" } })).organizationId;
  ids.globex = (await prisma.organizationSlug.findUniqueOrThrow({ where: { slug: "globex" } })).organizationId;
  cookies.owner = await sessionOf("owner@acme.test", ids.acme);
  cookies.member = await sessionOf("member@acme.test", ids.acme);
  cookies.globexOwner = await sessionOf("owner@globex.test", ids.globex);
  server = await startProductionServer(process.env.DATABASE_URL!);
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

const sameOrigin = () => ({ Origin: server.origin, "Sec-Fetch-Site": "same-origin" });
const upload = (organizationId: string, bytes: Uint8Array, headers: Record<string, string>) =>
  fetch(`${server.origin}/api/organizations/${organizationId}/logos`, {
    method: "POST",
    body: new Uint8Array(bytes),
    headers: { ...sameOrigin(), ...headers },
  });

describe("logo upload and serving", () => {
  it("stores a PNG sent as the body, whatever type it claims, and serves it with safe headers to members only", async () => {
    const created = await upload(ids.acme, IMAGES.png, { Cookie: cookies.owner, "Content-Type": "application/octet-stream" });
    expect(created.status).toBe(201);
    const { logoId, contentType } = (await created.json()) as { logoId: string; contentType: string };
    expect(contentType).toBe("image/png");
    const url = `${server.origin}/api/organizations/${ids.acme}/logos/${logoId}`;
    const served = await fetch(url, { headers: { Cookie: cookies.member } });
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-security-policy")).toContain("sandbox");
    expect(served.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(IMAGES.png);
    // Strangers learn nothing: signed out, another organization's owner, or the logo asked for under another organization.
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(url, { headers: { Cookie: cookies.globexOwner } })).status).toBe(404);
    expect(
      (await fetch(`${server.origin}/api/organizations/${ids.globex}/logos/${logoId}`, { headers: { Cookie: cookies.globexOwner } }))
        .status,
    ).toBe(404);
  });

  it("refuses what is not a PNG, JPEG or WebP (whatever it claims), translated; and members, strangers and cross-site posts", async () => {
    const html = await upload(ids.acme, IMAGES.html, { Cookie: cookies.owner, "Content-Type": "image/png", "Accept-Language": "de" });
    expect(html.status).toBe(400);
    expect(await html.json()).toMatchObject({ code: "BAD_REQUEST", message: "Die Datei ist kein PNG-, JPEG- oder WebP-Bild." });
    expect((await upload(ids.acme, IMAGES.svg, { Cookie: cookies.owner, "Content-Type": "image/svg+xml" })).status).toBe(400);
    expect((await upload(ids.acme, new Uint8Array(), { Cookie: cookies.owner })).status).toBe(400);
    expect((await upload(ids.acme, IMAGES.png, { Cookie: cookies.member })).status).toBe(403);
    expect((await upload(ids.acme, IMAGES.png, {})).status).toBe(401);
    expect((await upload(ids.acme, IMAGES.png, { Cookie: cookies.globexOwner })).status).toBe(403);
    const crossSite = await fetch(`${server.origin}/api/organizations/${ids.acme}/logos`, {
      method: "POST",
      body: IMAGES.png,
      headers: { Cookie: cookies.owner, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    const tooLarge = await upload(ids.acme, Buffer.concat([IMAGES.png, Buffer.alloc(600 * 1024)]), { Cookie: cookies.owner });
    expect(tooLarge.status).toBe(400);
  });

  it("the settings form uploads and sets the logo in one multipart submission", async () => {
    const form = new FormData();
    form.set("intent", "settings");
    form.set("name", "Acme");
    form.set("slug", "acme");
    form.set("logo", new File([IMAGES.webp], "logo.png", { type: "image/png" }));
    const before = await prisma.auditEvent.count({ where: { organizationId: ids.acme, action: "organization.settings_changed" } });
    const saved = await fetch(`${server.origin}/dashboard/organization-settings`, {
      method: "POST",
      body: form,
      headers: { ...sameOrigin(), Cookie: cookies.owner },
      redirect: "manual",
    });
    expect(saved.status).toBe(200);
    const organization = await prisma.organization.findUniqueOrThrow({ where: { id: ids.acme } });
    expect(organization.logoId).not.toBeNull();
    const logo = await prisma.organizationLogo.findUniqueOrThrow({
      where: { organizationId_id: { organizationId: ids.acme, id: organization.logoId! } },
    });
    expect(logo.contentType).toBe("image/webp");
    expect(await prisma.auditEvent.count({ where: { organizationId: ids.acme, action: "organization.settings_changed" } })).toBe(
      before + 1,
    );
  });
});

describe("pages without JavaScript", () => {
  it("the members page renders for members; a confirm link naming nobody says so", async () => {
    const page = await fetch(`${server.origin}/dashboard/organization-settings/members?confirm=remove&user=nobody`, {
      headers: { Cookie: cookies.owner, "Accept-Language": "en" },
    });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Invite someone");
    expect(html).toContain("This person or invitation no longer exists here.");
    const memberView = await (
      await fetch(`${server.origin}/dashboard/organization-settings/members`, { headers: { Cookie: cookies.member } })
    ).text();
    expect(memberView).not.toContain("Invite someone");
    expect(memberView).toContain("owner@acme.test");
  });

  it("the accept page answers any bad token with a translated 404 page (never 500), keeps out of caches, and says the link is not valid", async () => {
    for (const token of ["", "x", "A".repeat(43), "%00", "<script>", "🙂".repeat(50)]) {
      const page = await fetch(`${server.origin}/invitations/accept?token=${encodeURIComponent(token)}`, {
        headers: { "Accept-Language": "de" },
      });
      expect(page.status, token).toBe(404);
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(await page.text()).toContain("Dieser Einladungslink ist nicht gültig.");
    }
  });

  it("answers an expired or used invitation link exactly as an unknown one (404, nothing of the invitation), a valid one with 200", async () => {
    const owner = await prisma.user.findUniqueOrThrow({ where: { email: "owner@acme.test" }, select: { id: true } });
    const invite = async (email: string, status: "pending" | "accepted", expiresAt: Date) => {
      const { token, hash } = newInvitationToken();
      await createInvitationWithLink({
        organizationId: ids.acme,
        email,
        role: "member",
        status,
        invitedById: owner.id,
        expiresAt,
        tokenHash: hash,
      });
      return token;
    };
    const later = new Date(Date.now() + 86_400_000);
    const page = async (token: string) => {
      const response = await fetch(`${server.origin}/invitations/accept?token=${encodeURIComponent(token)}`, {
        headers: { "Accept-Language": "en" },
      });
      const html = await response.text();
      return { status: response.status, html, card: html.match(/data-testid="accept-invitation".*?<\/div>/s)?.[0] };
    };
    const valid = await page(await invite("valid-link@example.com", "pending", later));
    expect(valid.status).toBe(200);
    expect(valid.html).toContain("valid-link@example.com");
    const unknown = await page(newInvitationToken().token);
    const expired = await page(await invite("expired-link@example.com", "pending", new Date(Date.now() - 1000)));
    const used = await page(await invite("used-link@example.com", "accepted", later));
    for (const answer of [unknown, expired, used]) {
      expect(answer.status).toBe(404);
      expect(answer.card).toContain("This invitation link is not valid.");
      expect(answer.card).toBe(unknown.card);
      expect(answer.html).not.toMatch(/expired-link|used-link|Olivia/);
    }
  });

  it("the disabled raw organization routes answer 404", async () => {
    for (const path of [
      "invite-member",
      "accept-invitation",
      "cancel-invitation",
      "reject-invitation",
      "update",
      "update-member-role",
      "remove-member",
      "leave",
    ]) {
      const response = await fetch(`${server.origin}/api/auth/organization/${path}`, {
        method: "POST",
        headers: { ...sameOrigin(), Cookie: cookies.owner, "Content-Type": "application/json" },
        body: "{}",
      });
      expect(response.status, path).toBe(404);
    }
  });
});
