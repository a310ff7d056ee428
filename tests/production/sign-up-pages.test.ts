// Signing up through the production server over HTTP, without JavaScript
// (docs/decisions/0031-sign-up-policy-and-verified-addresses.md): a taken and a free address get
// the same status, page and headers and no session; the mailed link confirms the address and signs
// in, once; an unverified account cannot create an organization; invitation only (the default on
// an external database) shows no form and refuses the post; a bad SIGNUP_POLICY stops the start.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/auth/session.server";
import { prisma } from "~/db.server";
import { createUser } from "../factories";
import { mailsTo, visibleText } from "./outbox.ts";
import { startProductionServer, type ProductionServer } from "./production-server.ts";

let open: ProductionServer;
let inviteOnly: ProductionServer;

// One server at a time: every instance runs a mail worker on the shared database, and each writes
// to its own outbox folder.

const post = (server: ProductionServer, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${server.origin}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.origin, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });

/** The answer's headers but what differs per request (date, request id, the script nonce) or with
 * the body's length. */
const stableHeaders = (response: Response) =>
  [...response.headers.entries()]
    .filter(([name]) => !["date", "x-request-id", "content-length"].includes(name))
    .map(([name, value]) => [name, value.replace(/'nonce-[^']+'/, "'nonce-…'")]);

const signUpFields = (email: string) => ({ name: "Sam Same", email, password: "a-long-enough-pw", confirmPassword: "a-long-enough-pw" });

describe("sign-up without JavaScript", () => {
  beforeAll(async () => {
    process.env.SIGNUP_POLICY = "open";
    open = await startProductionServer(process.env.DATABASE_URL!);
    delete process.env.SIGNUP_POLICY;
  }, 90_000);
  afterAll(() => open?.stop());

  it("answers a taken and a free address alike, and the mailed link confirms and signs in once", async () => {
    const taken = await createUser({ email: `taken-${randomUUID().slice(0, 8)}@example.test` });
    const free = `free-${randomUUID().slice(0, 8)}@example.test`;
    const answers = [await post(open, "/signup", signUpFields(taken.email)), await post(open, "/signup", signUpFields(free))];
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.headers.get("set-cookie"))).toEqual([null, null]);
    expect(stableHeaders(answers[0]!)).toEqual(stableHeaders(answers[1]!));
    const [takenText, freeText] = [visibleText(await answers[0]!.text()), visibleText(await answers[1]!.text())];
    expect(freeText).toContain(`We sent a mail to ${free}`);
    expect(takenText.replace(taken.email, "ADDRESS")).toBe(freeText.replace(free, "ADDRESS"));

    const [note] = await mailsTo(open, taken.email);
    expect(note!.subject).toBe("Someone tried to sign up for KeyLedger with your address");
    const [welcome] = await mailsTo(open, free);
    const link = /http:\/\/localhost:\d+\/verify-email\?token=[A-Za-z0-9_-]+/.exec(welcome!.text ?? "")?.[0];
    expect(link).toBeTruthy();
    const path = new URL(link!).pathname + new URL(link!).search;
    const token = new URL(link!).searchParams.get("token")!;

    const page = await fetch(`${open.origin}${path}`);
    expect([page.status, page.headers.get("cache-control")]).toEqual([200, "no-store"]);
    expect(await page.text()).toContain(free);
    // The page asks for the password chosen at sign-up; a wrong one is the translated 400 of
    // every wrong password, signs nobody in, and leaves the link usable.
    expect(visibleText(await (await fetch(`${open.origin}${path}&lng=de`)).text())).toContain(
      "Geben Sie das Passwort ein, das Sie bei der Registrierung gewählt haben",
    );
    for (const [lng, message] of [
      ["en", "The password is incorrect."],
      ["de", "Das Passwort ist falsch."],
    ] as const) {
      const wrong = await post(open, `${path}&lng=${lng}`, { token, password: "not-the-one-chosen" });
      // (`lng` sets the language cookie; no session cookie.)
      expect([wrong.status, wrong.headers.get("set-cookie") ?? ""]).toEqual([400, expect.not.stringContaining("session=")]);
      expect(visibleText(await wrong.text())).toContain(message);
    }
    const missing = await post(open, path, { token });
    expect([missing.status, missing.headers.get("set-cookie")]).toEqual([400, null]);
    const confirmed = await post(open, path, { token, password: "a-long-enough-pw" });
    expect([confirmed.status, confirmed.headers.get("location")]).toEqual([302, "/dashboard"]);
    expect(confirmed.headers.get("set-cookie")).toMatch(/^session=[a-z2-7]{32};/);

    const reused = await post(open, path, { token, password: "a-long-enough-pw" });
    expect([reused.status, reused.headers.get("set-cookie")]).toEqual([400, null]);
    const dead = await fetch(`${open.origin}${path}&lng=de`);
    expect(dead.status).toBe(400);
    expect(await dead.text()).toContain("Dieser Link funktioniert nicht mehr");
  }, 60_000);

  it("limits a flood of sign-ups per address with the same 429 for a taken and a free one", async () => {
    const taken = await createUser();
    const free = `flood-${randomUUID().slice(0, 8)}@example.test`;
    const refusals: { status: number; retryAfter: string | null; text: string }[] = [];
    for (const email of [taken.email, free]) {
      for (let i = 0; i < 5; i++) expect((await post(open, "/signup", signUpFields(email))).status).toBe(200);
      const refused = await post(open, "/signup", signUpFields(email));
      refusals.push({ status: refused.status, retryAfter: refused.headers.get("retry-after"), text: visibleText(await refused.text()) });
    }
    expect(refusals[0]!.status).toBe(429);
    expect(refusals[0]!.text).toContain("Too many attempts");
    expect(refusals[0]!.text.replace(taken.email, "ADDRESS")).toEqual(refusals[1]!.text.replace(free, "ADDRESS"));
    expect(refusals[0]!.retryAfter).toMatch(/^\d+$/);
  }, 60_000);

  it("refuses an organization to an unverified account with a 403 and offers the link again", async () => {
    const user = await createUser({ verified: false });
    const { token } = await createSession(user.id, { twoFactorVerified: false });
    const cookie = { Cookie: `session=${token}` };
    const page = await fetch(`${open.origin}/dashboard/organizations/new`, { headers: cookie });
    const html = await page.text();
    expect(html).toContain("Confirm your e-mail address");
    expect(html).toContain("Send the link again");
    const refused = await post(open, "/dashboard/organizations/new", { name: "Too Early" }, cookie);
    expect(refused.status).toBe(403);
    expect(await prisma.membership.count({ where: { userId: user.id } })).toBe(0);
    const resent = await post(open, "/dashboard/organizations/new", { intent: "resend" }, cookie);
    expect(resent.status).toBe(200);
    expect(await resent.text()).toContain("A new link is on its way");
    expect((await mailsTo(open, user.email)).length).toBe(1);
  }, 60_000);
});

describe("invitation only", () => {
  beforeAll(async () => {
    // No SIGNUP_POLICY with an external DATABASE_URL: invitation only.
    inviteOnly = await startProductionServer(process.env.DATABASE_URL!);
  }, 90_000);
  afterAll(() => inviteOnly?.stop());

  it("shows no form and refuses a sign-up, taken or free alike, with a translated 403", async () => {
    const page = await fetch(`${inviteOnly.origin}/signup?lng=de`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("Konten gibt es in diesem KeyLedger nur auf Einladung");
    expect(html).not.toContain('name="password"');
    const taken = await createUser();
    const answers = [
      await post(inviteOnly, "/signup", signUpFields(taken.email)),
      await post(inviteOnly, "/signup", signUpFields(`x-${randomUUID().slice(0, 8)}@example.test`)),
    ];
    expect(answers.map((a) => a.status)).toEqual([403, 403]);
    expect(await answers[0]!.text()).toContain("Accounts on this KeyLedger are by invitation only");
  });

  it("stops the start with a message naming a bad SIGNUP_POLICY", async () => {
    process.env.SIGNUP_POLICY = "domains:";
    try {
      await expect(startProductionServer(process.env.DATABASE_URL!)).rejects.toThrow(/SIGNUP_POLICY lists no domain/);
    } finally {
      delete process.env.SIGNUP_POLICY;
    }
  }, 60_000);
});
