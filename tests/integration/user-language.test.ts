// A person's stored language (docs/decisions/0058-expiry-reminders.md), over real HTTP through the
// built app: set when they sign up, sign in, or switch language while signed in; an ordinary page
// view writes nothing. And the reminders' key link: straight to the keys page when the key's
// organization is active, a page that asks (and a POST that switches) when another one is.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookieName } from "~/auth/cookies.server";
import { signUp } from "~/accounts/sign-up.server";
import { prisma } from "~/db.server";
import { startInProcessServer, type InProcessServer } from "../app-server";
import { createOrganizationWith, createUser, signedIn, TEST_PASSWORD } from "../factories";

let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcessServer();
});
afterAll(() => server.close());

const languageOf = async (userId: string) =>
  (await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { language: true } })).language;

const sameOrigin = () => ({
  "content-type": "application/x-www-form-urlencoded",
  origin: server.origin,
  "sec-fetch-site": "same-origin",
});

function signInOverHttp(email: string, query = "") {
  return fetch(`${server.origin}/login${query}`, {
    method: "POST",
    headers: sameOrigin(),
    body: new URLSearchParams({ email, password: TEST_PASSWORD, redirectTo: "/dashboard" }),
    redirect: "manual",
  });
}

describe("the stored language", () => {
  it("is the page's language at sign-in", async () => {
    const user = await createUser();
    expect(await languageOf(user.id)).toBeNull();
    const german = await signInOverHttp(user.email, "?lng=de");
    expect(german.status).toBe(302);
    expect(await languageOf(user.id)).toBe("de");
    const english = await fetch(`${server.origin}/login`, {
      method: "POST",
      headers: { ...sameOrigin(), cookie: "lng=en" },
      body: new URLSearchParams({ email: user.email, password: TEST_PASSWORD, redirectTo: "/dashboard" }),
      redirect: "manual",
    });
    expect(english.status).toBe(302);
    expect(await languageOf(user.id)).toBe("en");
  });

  it("is the page's language at sign-up", async () => {
    const email = `signup-${randomUUID()}@example.test`;
    await signUp(
      { name: "Greta", email, password: "a-long-enough-password" },
      { policy: { kind: "open" }, clientAddress: "10.33.1.1", delivery: { language: "de", origin: "https://keys.example.com" } },
    );
    expect((await prisma.user.findUniqueOrThrow({ where: { email }, select: { language: true } })).language).toBe("de");
  });

  it("follows a switch while signed in, and an ordinary page view leaves it alone", async () => {
    const user = await createUser();
    const organization = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
    const { token } = await signedIn(user.id, organization.id);
    const cookie = `${sessionCookieName()}=${token}`;
    const switched = await fetch(`${server.origin}/dashboard?lng=de`, { headers: { cookie } });
    expect(switched.status).toBe(200);
    expect(await languageOf(user.id)).toBe("de");
    // A page view in another language (the browser's, not a switch) stores nothing.
    const viewed = await fetch(`${server.origin}/dashboard`, { headers: { cookie: `${cookie}; lng=en` } });
    expect(viewed.status).toBe(200);
    expect(await languageOf(user.id)).toBe("de");
    await fetch(`${server.origin}/dashboard?lng=en`, { headers: { cookie } });
    expect(await languageOf(user.id)).toBe("en");
    // Signed out, a switch is only the cookie.
    expect((await fetch(`${server.origin}/login?lng=de`)).status).toBe(200);
  });
});

describe("the reminders' key link", () => {
  async function twoOrganizations() {
    const user = await createUser();
    const keys = await createOrganizationWith([{ userId: user.id, role: "admin" }]);
    const other = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
    return { user, keys, other };
  }
  const linkOf = (organizationId: string, q = "sk_live_abc") =>
    `${server.origin}/dashboard/organizations/${organizationId}/api-keys?q=${encodeURIComponent(q)}`;

  it("opens the keys page filtered to the key when its organization is active", async () => {
    const { user, keys } = await twoOrganizations();
    const { token } = await signedIn(user.id, keys.id);
    const response = await fetch(linkOf(keys.id), { headers: { cookie: `${sessionCookieName()}=${token}` }, redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dashboard/organization-settings/api-keys?q=sk_live_abc");
  });

  it("asks before switching when another organization is active, and switches only on the POST", async () => {
    const { user, keys, other } = await twoOrganizations();
    const { token } = await signedIn(user.id, other.id);
    const cookie = `${sessionCookieName()}=${token}`;
    const page = await fetch(linkOf(keys.id), { headers: { cookie, "accept-language": "de" }, redirect: "manual" });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`Dieser Link öffnet die API-Schlüssel von ${keys.name}. Sie arbeiten gerade in ${other.name}.`);
    expect(html).toContain(`Zu ${keys.name} wechseln`);
    const activeOf = async () => (await prisma.session.findFirstOrThrow({ where: { userId: user.id } })).activeOrganizationId;
    expect(await activeOf()).toBe(other.id);

    // From another site: refused by the request edge, nothing switched.
    const crossSite = await fetch(linkOf(keys.id), {
      method: "POST",
      headers: { ...sameOrigin(), cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      body: "intent=switch&q=sk_live_abc",
      redirect: "manual",
    });
    expect(crossSite.status).toBe(403);
    expect(await activeOf()).toBe(other.id);

    const switched = await fetch(linkOf(keys.id), {
      method: "POST",
      headers: { ...sameOrigin(), cookie },
      body: "intent=switch&q=sk_live_abc",
      redirect: "manual",
    });
    expect(switched.status).toBe(302);
    expect(switched.headers.get("location")).toBe("/dashboard/organization-settings/api-keys?q=sk_live_abc");
    expect(await activeOf()).toBe(keys.id);
  });

  it("answers someone else's organization 403, an unknown one 404, a bad form 400, signed out: the sign-in page", async () => {
    const { user, other } = await twoOrganizations();
    const stranger = await createOrganizationWith([]);
    const { token } = await signedIn(user.id, other.id);
    const cookie = `${sessionCookieName()}=${token}`;
    const status = async (url: string, init: RequestInit = {}) =>
      (await fetch(url, { ...init, headers: { cookie, ...(init.headers as Record<string, string>) }, redirect: "manual" })).status;
    expect(await status(linkOf(stranger.id))).toBe(403);
    expect(await status(linkOf(randomUUID()))).toBe(404);
    expect(await status(linkOf("not-a-uuid"))).toBe(404);
    expect(await status(linkOf(stranger.id), { method: "POST", headers: sameOrigin(), body: "intent=switch" })).toBe(403);
    expect(await status(linkOf(other.id), { method: "POST", headers: sameOrigin(), body: "intent=nonsense" })).toBe(400);
    // A filter with control characters, or too long for a prefix or name: dropped.
    for (const q of ["\u0000\u001b[31m", "x".repeat(500)]) {
      const dropped = await fetch(linkOf(other.id, q), { headers: { cookie }, redirect: "manual" });
      expect(dropped.status).toBe(302);
      expect(dropped.headers.get("location")).toBe("/dashboard/organization-settings/api-keys");
    }
    const signedOut = await fetch(linkOf(other.id), { redirect: "manual" });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toContain("/login?redirectTo=");
  });
});
