// Hostile input against sign-up, the verification link and the change of address, over HTTP on the
// production server (docs/decisions/0031-sign-up-policy-and-verified-addresses.md): probing for
// taken addresses through a later sign-in, case and look-alike variants of a taken address, links
// used by many requests at once, another account's link, redirects off-site, a taken address as the
// new one, and a reset link left in the old mailbox. Every answer is the documented one, never a
// 500, and nothing is changed, mailed or logged that the refusal should not.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSession } from "~/auth/session.server";
import { prisma } from "~/db.server";
import { createUser, TEST_PASSWORD } from "../factories";
import { mailsTo, visibleText } from "./outbox.ts";
import { startProductionServer, type ProductionServer } from "./production-server.ts";

let server: ProductionServer;

beforeAll(async () => {
  process.env.SIGNUP_POLICY = "open";
  try {
    server = await startProductionServer(process.env.DATABASE_URL!);
  } finally {
    delete process.env.SIGNUP_POLICY;
  }
}, 90_000);
afterAll(() => server?.stop());
// Every request comes from 127.0.0.1: the per-client limit is another test's subject.
beforeEach(() => prisma.$executeRaw`DELETE FROM rate_limits`);

const post = (path: string, fields: Record<string, string> | [string, string][], headers: Record<string, string> = {}) =>
  fetch(`${server.origin}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.origin, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });

function linkIn(text: string | undefined, path: string): { path: string; token: string } {
  const match = new RegExp(`https?://[^/\\s]+(${path}\\?token=([A-Za-z0-9_-]+)[^\\s]*)`).exec(text ?? "");
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return { path: match[1]!, token: match[2]! };
}

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@example.test`;
const signUpFields = (email: string, password = "the-probers-own-choice") => ({
  name: "Pat Probe",
  email,
  password,
  confirmPassword: password,
});
const jobs = () => prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker.jobs`.then((r) => Number(r[0]!.n));
const sessionCookie = async (userId: string) => `session=${(await createSession(userId, { twoFactorVerified: false })).token}`;

describe("sign-up probed for taken addresses", () => {
  it("tells nothing through a sign-in right after: the password just chosen fails alike for a taken and a free address", async () => {
    const taken = await createUser();
    const free = unique("probe");
    for (const email of [taken.email, free]) expect((await post("/signup", signUpFields(email))).status).toBe(200);
    const answers = await Promise.all(
      [taken.email, free].map(async (email) => {
        const answer = await post("/login", { email, password: "the-probers-own-choice" });
        return {
          status: answer.status,
          cookie: answer.headers.get("set-cookie"),
          text: visibleText(await answer.text()).replace(email, "ADDRESS"),
        };
      }),
    );
    expect(answers[0]!.status).toBeGreaterThanOrEqual(400);
    expect(answers[0]!.cookie).toBeNull();
    expect(answers[0]!.text).toContain("The e-mail address or password is incorrect.");
    expect(answers[1]).toEqual(answers[0]);
  }, 60_000);

  it("treats case variants of a taken address as that address, and refuses look-alikes with a translated 400", async () => {
    const taken = await createUser({ email: unique("casey") });
    const [local, domain] = taken.email.split("@") as [string, string];
    for (const variant of [`${local.toUpperCase()}@${domain.toUpperCase()}`, ` ${local}@${domain}  `]) {
      const answer = await post("/signup", signUpFields(variant));
      expect(answer.status).toBe(200);
      expect(visibleText(await answer.text())).toContain(`We sent a mail to ${taken.email}`);
    }
    expect(await prisma.user.count({ where: { email: { equals: taken.email, mode: "insensitive" } } })).toBe(1);
    // The owner's "someone tried" mail first leaves the queue, so a job the look-alikes left would show.
    await mailsTo(server, taken.email);
    for (let waited = 0; (await jobs()) > 0 && waited < 30_000; waited += 200) await new Promise((resolve) => setTimeout(resolve, 200));
    const jobsBefore = await jobs();
    // Cyrillic "о", fullwidth letters, a zero-width space, a right-to-left override, a dotted capital I.
    const lookAlikes = [
      `\u043e${local.slice(1)}@${domain}`,
      `\uff4f${local}@${domain}`,
      `${local}\u200b@${domain}`,
      `${local}\u202e@${domain}`,
    ];
    for (const lookAlike of [...lookAlikes, `\u0130nfo@${domain}`]) {
      for (const [lng, message] of [
        ["en", /Enter a valid e-mail address|Remove control characters/],
        ["de", /E-Mail-Adresse|Steuerzeichen/],
      ] as const) {
        const answer = await post(`/signup?lng=${lng}`, signUpFields(lookAlike));
        expect(answer.status).toBe(400);
        expect(visibleText(await answer.text())).toMatch(message);
      }
    }
    expect(await jobs()).toBe(jobsBefore);
    expect(await prisma.user.count({ where: { email: { contains: local.slice(-8) } } })).toBe(1);
  }, 60_000);

  it("names the real limit for an address that is too long, in English and German", async () => {
    const long = `${"a".repeat(64)}@${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(60)}.${"e".repeat(60)}.test`;
    for (const path of ["/signup", "/forgot-password", "/login"]) {
      const fields = path === "/signup" ? signUpFields(long) : { email: long, password: "whatever-it-is" };
      const english = await post(`${path}?lng=en`, fields);
      expect(english.status).toBe(400);
      expect(visibleText(await english.text())).toContain("Use at most 254 characters.");
      const german = await post(`${path}?lng=de`, fields);
      expect(visibleText(await german.text())).toContain("Verwenden Sie höchstens 254 Zeichen.");
    }
  }, 60_000);
});

describe("the verification link under attack", () => {
  it("signs in exactly once when many requests use it at the same moment, and never off-site", async () => {
    const email = unique("racer");
    expect((await post("/signup", signUpFields(email))).status).toBe(200);
    const [welcome] = await mailsTo(server, email);
    const { token } = linkIn(welcome!.text, "/verify-email");
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });

    // Another signed-in account cannot use it, and changes nothing.
    const other = await createUser();
    const password = "the-probers-own-choice";
    const foreign = await post("/verify-email", { token, password }, { Cookie: await sessionCookie(other.id) });
    expect(foreign.status).toBe(403);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailVerifiedAt).toBeNull();
    // Duplicated or malformed tokens are a 400.
    for (const fields of [
      [
        ["token", token],
        ["token", token],
        ["password", password],
      ],
      { token: `${token}=`, password },
      { token: token.slice(1), password },
      { token: "A".repeat(201), password },
      { token },
    ] as const) {
      expect((await post("/verify-email", fields as Record<string, string>)).status).toBe(400);
    }

    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post("/verify-email", { token, password, redirectTo: "/\\evil.example/%2F%2Fx" })),
    );
    const signedIn = answers.filter((a) => a.status === 302);
    expect(signedIn).toHaveLength(1);
    expect(signedIn[0]!.headers.get("location")).toBe("/dashboard");
    expect(answers.filter((a) => a.status === 400)).toHaveLength(7);
    expect(answers.filter((a) => a.status === 400 && a.headers.get("set-cookie"))).toHaveLength(0);
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(1);
    expect(server.output()).not.toContain(token);
  }, 60_000);
});

describe("the change of address under attack", () => {
  it("answers a taken new address like a free one, and moves the account exactly once under a burst of confirmations", async () => {
    const taken = await createUser();
    const user = await createUser({ name: "Mo Mover" });
    const cookie = { Cookie: await sessionCookie(user.id) };
    const ask = async (newEmail: string) => {
      const answer = await post("/dashboard/account", { intent: "email", newEmail, currentPassword: TEST_PASSWORD }, cookie);
      return { status: answer.status, text: visibleText(await answer.text()).replaceAll(newEmail.toLowerCase(), "ADDRESS") };
    };
    const free = unique("moved");
    const [toTaken, toFree] = [await ask(taken.email.toUpperCase()), await ask(free)];
    expect(toTaken.status).toBe(200);
    expect(toTaken).toEqual(toFree);
    // Its own address, in another case, is a translated 400.
    const own = await ask(user.email.toUpperCase());
    expect(own.status).toBe(400);

    const [note] = await mailsTo(server, taken.email);
    expect(note!.subject).toBe("This address already has a KeyLedger account");
    expect(note!.text).not.toMatch(/token=/);
    const [confirmation] = await mailsTo(server, free);
    const link = linkIn(confirmation!.text, "/dashboard/account/confirm-email");
    // A reset link mailed to the old address before the change.
    expect((await post("/forgot-password", { email: user.email })).status).toBe(200);
    const [resetMail] = await mailsTo(server, user.email);
    const reset = linkIn(resetMail!.text, "/reset-password");

    // Someone else's session cannot use the link.
    expect((await post("/dashboard/account/confirm-email", { token: link.token }, { Cookie: await sessionCookie(taken.id) })).status).toBe(
      403,
    );
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post("/dashboard/account/confirm-email", { token: link.token }, cookie)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([302, 400, 400, 400, 400, 400, 400, 400]);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(free);
    expect(await mailsTo(server, user.email, 2)).toHaveLength(2); // the reset mail and one "address changed" notice
    expect((await prisma.user.findUniqueOrThrow({ where: { id: taken.id } })).email).toBe(taken.email);

    // The reset link in the old mailbox no longer takes the account.
    const stale = await post("/reset-password", {
      token: reset.token,
      newPassword: "taken-over-password",
      confirmPassword: "taken-over-password",
    });
    expect(stale.status).toBe(400);
    expect(server.output()).not.toMatch(/"level":"(error|fatal)"/);
  }, 90_000);
});
