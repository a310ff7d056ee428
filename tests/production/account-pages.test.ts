// "Forgot password" and account deletion through the production server over HTTP, without
// JavaScript: the same page for known and unknown addresses, the mailed link (read from the
// server's outbox) working once, and the deletion form's refusals and success.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/auth/session.server";
import { prisma } from "~/db.server";
import { createOrganizationWith, createUser, TEST_PASSWORD } from "../factories";
import { mailsTo, visibleText } from "./outbox.ts";
import { startProductionServer, type ProductionServer } from "./production-server.ts";
import { rawRequest } from "./raw-http.ts";

let server: ProductionServer;

beforeAll(async () => {
  server = await startProductionServer(process.env.DATABASE_URL!);
}, 90_000);

afterAll(async () => {
  await server?.stop();
});

const sameOrigin = () => ({ Origin: server.origin, "Sec-Fetch-Site": "same-origin" });
const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${server.origin}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { ...sameOrigin(), "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });

describe("forgot password without JavaScript", () => {
  it("gives known and unknown addresses the same page, and mails a working link only to the account", async () => {
    const user = await createUser({ email: `known-${randomUUID().slice(0, 8)}@example.test` });
    const unknown = `unknown-${randomUUID().slice(0, 8)}@example.test`;
    const login = await (await fetch(`${server.origin}/login`)).text();
    expect(login).toContain('href="/forgot-password"');

    const [known, stranger] = [await post("/forgot-password", { email: user.email }), await post("/forgot-password", { email: unknown })];
    expect([known.status, stranger.status]).toEqual([200, 200]);
    const [knownText, strangerText] = [visibleText(await known.text()), visibleText(await stranger.text())];
    expect(knownText).toContain(`If an account exists for ${user.email}`);
    expect(knownText.replace(user.email, "ADDRESS")).toBe(strangerText.replace(unknown, "ADDRESS"));

    const [text] = (await mailsTo(server, user.email)).map((m) => m.text ?? "");
    const token = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(text ?? "")?.[1];
    expect(token).toBeTruthy();
    // Links point to the public origin (APP_ORIGIN, here unset: the address the banner prints).
    expect(text).toContain(`http://localhost:${server.port}/reset-password?token=`);
    // The known address's mail is out, and the unknown one's job (queued first) has run too.
    expect(await mailsTo(server, unknown, 1, 1_000).then((m) => m.length)).toBe(0);

    const page = await fetch(`${server.origin}/reset-password?token=${token}`);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(await page.text()).toContain('name="newPassword"');
    // Two different passwords: a 400 with a message, the link keeps working.
    const mismatch = await post(`/reset-password?token=${token}`, {
      token: token!,
      newPassword: "one-long-password",
      confirmPassword: "two",
    });
    expect(mismatch.status).toBe(400);
    const done = await post(`/reset-password?token=${token}`, {
      token: token!,
      newPassword: "brand-new-password!",
      confirmPassword: "brand-new-password!",
    });
    expect([done.status, done.headers.get("location")]).toEqual([302, "/login?notice=passwordReset"]);
    expect(await (await fetch(`${server.origin}/login?notice=passwordReset`)).text()).toContain("Your password was changed");
    // Used: the page says so (in German too), and posting again is a 400 that changes nothing.
    const dead = await fetch(`${server.origin}/reset-password?token=${token}&lng=de`);
    expect(await dead.text()).toContain("Dieser Link funktioniert nicht mehr");
    const again = await post(`/reset-password?token=${token}`, {
      token: token!,
      newPassword: "another-new-password",
      confirmPassword: "another-new-password",
    });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("This link does not work anymore");
    const signIn = await post("/login", { email: user.email, password: "brand-new-password!" });
    expect(signIn.status).toBe(302);
  }, 60_000);

  it("never builds the link from the request's Host header", async () => {
    const user = await createUser({ email: `victim-${randomUUID().slice(0, 8)}@example.test` });
    const body = new URLSearchParams({ email: user.email }).toString();
    const answer = await rawRequest(server.port, {
      method: "POST",
      target: "/forgot-password",
      host: "evil.example",
      headers: {
        Origin: "http://evil.example",
        "Sec-Fetch-Site": "same-origin",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body,
    });
    expect(answer.status).toBe(200);
    const [text] = (await mailsTo(server, user.email)).map((m) => m.text ?? "");
    expect(text).toContain(`http://localhost:${server.port}/reset-password?token=`);
    expect(text).not.toContain("evil.example");
  });

  it("answers a malformed address with a 400 and a message, and sends nothing", async () => {
    const jobs = async () =>
      Number((await prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker._private_jobs`)[0]!.n);
    const before = await jobs();
    const answer = await post("/forgot-password", { email: "not an address" }, { "Accept-Language": "de" });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("E-Mail");
    expect(await jobs()).toBe(before);
  });
});

describe("deleting an account without JavaScript", () => {
  it("refuses wrong proof with translated 400s, then deletes, signs out and says so", async () => {
    const user = await createUser();
    const org = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
    const cookie = `session=${(await createSession(user.id, { twoFactorVerified: false, activeOrganizationId: org.id })).token}`;
    const page = await (await fetch(`${server.origin}/dashboard/account`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain("Delete my account");

    const wrongConfirm = await post(
      "/dashboard/account",
      { intent: "delete", password: TEST_PASSWORD, confirm: "x@y.test" },
      { Cookie: cookie },
    );
    expect(wrongConfirm.status).toBe(400);
    expect(await wrongConfirm.text()).toContain("Type your account&#x27;s e-mail address exactly to confirm.");
    const wrongPassword = await post(
      "/dashboard/account?lng=de",
      { intent: "delete", password: "not-the-password", confirm: user.email },
      { Cookie: cookie },
    );
    expect(wrongPassword.status).toBe(400);
    expect(await wrongPassword.text()).toContain("Das Passwort ist falsch.");
    const crossSite = await post(
      "/dashboard/account",
      { intent: "delete", password: TEST_PASSWORD, confirm: user.email },
      { Cookie: cookie, "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" },
    );
    expect(crossSite.status).toBe(403);
    expect(await prisma.user.count({ where: { id: user.id } })).toBe(1);

    const deleted = await post(
      "/dashboard/account",
      { intent: "delete", password: TEST_PASSWORD, confirm: user.email },
      { Cookie: cookie },
    );
    expect([deleted.status, deleted.headers.get("location")]).toEqual([302, "/login?notice=accountDeleted"]);
    expect(deleted.headers.get("set-cookie")).toMatch(/session=;|Max-Age=0/);
    expect(await prisma.user.count({ where: { id: user.id } })).toBe(0);
    expect(await prisma.organization.count({ where: { id: org.id } })).toBe(0);
    const after = await fetch(`${server.origin}/dashboard/account`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(after.status).toBe(302);
  });
});
