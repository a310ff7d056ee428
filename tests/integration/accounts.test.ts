import { describe, expect, it } from "vitest";
import { signIn } from "~/auth/sign-in.server";
import { signUp } from "~/accounts/sign-up.server";
import { PASSWORD_MAX_LENGTH } from "~/auth/password-rules";
import { hashPassword, verifyPassword } from "~/auth/password.server";
import { signInSchema, signUpSchema } from "~/auth/schemas";
import { sessionIdFromToken, validateSessionToken } from "~/auth/session.server";
import { prisma } from "~/db.server";
import { DomainError, domainErrorMessage } from "~/lib/domain-error";
import { createOrganizationWith, createUser, TEST_PASSWORD } from "../factories";

async function domainError(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

let address = 0;
const freshAddress = () => `10.0.0.${++address}`;

describe("sign-up", () => {
  const open = (clientAddress: string) => ({
    policy: { kind: "open" as const },
    clientAddress,
    delivery: { language: "en" as const, origin: "https://keys.example.com" },
  });

  it("creates an unverified user with an argon2id hash and does not sign them in", async () => {
    const outcome = await signUp({ name: "Ada", email: "ada@example.test", password: "long-enough-pw" }, open(freshAddress()));
    expect(outcome).toEqual({ kind: "mailed" });
    const user = await prisma.user.findUniqueOrThrow({
      where: { email: "ada@example.test" },
      select: { id: true, passwordHash: true, emailVerifiedAt: true },
    });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.emailVerifiedAt).toBeNull();
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(0);
  });

  it("answers a taken address exactly like a free one and leaves the account as it was", async () => {
    await signUp({ name: "A", email: "dup@example.test", password: "long-enough-pw" }, open(freshAddress()));
    const before = await prisma.user.findUniqueOrThrow({ where: { email: "dup@example.test" } });
    const again = await signUp({ name: "B", email: "dup@example.test", password: "another-long-pw" }, open(freshAddress()));
    expect(again).toEqual({ kind: "mailed" });
    expect(await prisma.user.findUniqueOrThrow({ where: { email: "dup@example.test" } })).toEqual(before);
  });

  it("validates e-mail and password length before any hashing", () => {
    const base = { name: "X", email: "x@example.test", password: "long-enough-pw", confirmPassword: "long-enough-pw" };
    expect(signUpSchema.safeParse(base).success).toBe(true);
    expect(signUpSchema.safeParse({ ...base, email: "not-an-email" }).success).toBe(false);
    expect(signUpSchema.safeParse({ ...base, password: "short", confirmPassword: "short" }).success).toBe(false);
    const huge = "x".repeat(1024 * 1024);
    expect(signUpSchema.safeParse({ ...base, password: huge, confirmPassword: huge }).success).toBe(false);
    expect(signInSchema.safeParse({ email: "x@example.test", password: huge }).success).toBe(false);
    expect(signUpSchema.safeParse({ ...base, confirmPassword: "different-pw" }).success).toBe(false);
    expect(signUpSchema.parse({ ...base, email: "  MiXed@Example.TEST " }).email).toBe("mixed@example.test");
  });

  it("refuses an overlong password before argon2 sees it", async () => {
    const overlong = "x".repeat(PASSWORD_MAX_LENGTH + 1);
    // Even the correct overlong password is refused: the bound is checked before verifying.
    expect(await verifyPassword(await hashPassword(overlong), overlong)).toBe(false);
    const fine = "y".repeat(PASSWORD_MAX_LENGTH);
    expect(await verifyPassword(await hashPassword(fine), fine)).toBe(true);
  });
});

describe("sign-in", () => {
  it("answers the same error for an unknown e-mail and a wrong password", async () => {
    const user = await createUser();
    const unknown = await domainError(signIn({ email: "nobody@example.test", password: TEST_PASSWORD }, freshAddress()));
    const wrong = await domainError(signIn({ email: user.email, password: "wrong-password!" }, freshAddress()));
    expect([unknown.code, unknown.messageKey]).toEqual(["UNAUTHORIZED", "invalidCredentials"]);
    expect([wrong.code, wrong.messageKey]).toEqual([unknown.code, unknown.messageKey]);
  });

  it("creates a new session id on every sign-in and ends the previous one", async () => {
    const user = await createUser();
    const first = await signIn({ email: user.email, password: TEST_PASSWORD }, freshAddress());
    const second = await signIn({ email: user.email, password: TEST_PASSWORD }, freshAddress(), sessionIdFromToken(first.token));
    expect(second.token).not.toBe(first.token);
    expect(await validateSessionToken(first.token)).toBeNull();
    expect(await validateSessionToken(second.token)).not.toBeNull();
  });

  it("activates the user's first organization", async () => {
    const user = await createUser();
    const org = await createOrganizationWith([{ userId: user.id, role: "admin" }]);
    const { token } = await signIn({ email: user.email, password: TEST_PASSWORD }, freshAddress());
    expect((await validateSessionToken(token))!.session.activeOrganizationId).toBe(org.id);
  });

  it("reports a pending second factor for enrolled users", async () => {
    const user = await createUser();
    await prisma.user.update({ where: { id: user.id }, data: { twoFactorEnabledAt: new Date(), totpKey: Buffer.alloc(20, 1) } });
    const result = await signIn({ email: user.email, password: TEST_PASSWORD }, freshAddress());
    expect(result.twoFactorPending).toBe(true);
    const auth = await validateSessionToken(result.token);
    expect(auth!.session.twoFactorVerified).toBe(false);
  });

  it("is rate limited per account, even from many addresses", async () => {
    const user = await createUser();
    for (let i = 0; i < 10; i++) {
      await domainError(signIn({ email: user.email, password: "wrong-password!" }, freshAddress()));
    }
    const limited = await domainError(signIn({ email: user.email, password: TEST_PASSWORD }, freshAddress()));
    expect(limited.code).toBe("TOO_MANY_REQUESTS");
    expect(limited.retryAfterSeconds).toBeGreaterThan(0);
  });

  it("is rate limited per client address, across accounts", async () => {
    const addressUnderTest = "192.0.2.77";
    for (let i = 0; i < 50; i++) {
      await domainError(signIn({ email: `nobody-${i}@example.test`, password: "wrong-password!" }, addressUnderTest));
    }
    const limited = await domainError(signIn({ email: "someone@example.test", password: "wrong-password!" }, addressUnderTest));
    expect(limited.code).toBe("TOO_MANY_REQUESTS");
  }, 120_000);

  it("counts only failures against an address: a whole office can sign in from one", async () => {
    const office = "198.51.100.10";
    const colleagues = await Promise.all(Array.from({ length: 3 }, () => createUser()));
    // 60 successful sign-ins (more than the 50 allowed failures) and a few typos from one address.
    for (let i = 0; i < 60; i++) await signIn({ email: colleagues[i % 3]!.email, password: TEST_PASSWORD }, office);
    for (let i = 0; i < 5; i++) await domainError(signIn({ email: colleagues[0]!.email, password: "wrong-password!" }, office));
    await signIn({ email: colleagues[1]!.email, password: TEST_PASSWORD }, office);
  }, 120_000);

  it("words the wait in minutes", async () => {
    const user = await createUser();
    for (let i = 0; i < 10; i++) await domainError(signIn({ email: user.email, password: "wrong-password!" }, freshAddress()));
    const limited = await domainError(signIn({ email: user.email, password: TEST_PASSWORD }, freshAddress()));
    const { fixedT } = await import("~/i18n/i18next.server");
    expect(domainErrorMessage(limited, fixedT("en"))).toBe("Too many attempts. Try again in 15 minutes.");
    expect(domainErrorMessage(limited, fixedT("de"))).toBe("Zu viele Versuche. Versuchen Sie es in 15 Minuten erneut.");
    expect(domainErrorMessage(new DomainError("TOO_MANY_REQUESTS", "rateLimited", { retryAfterSeconds: 1 }), fixedT("en"))).toBe(
      "Too many attempts. Try again in 1 second.",
    );
  });
});
