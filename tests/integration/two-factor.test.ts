import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { describe, expect, it } from "vitest";
import { validateSessionToken } from "~/auth/session.server";
import {
  beginEnrollment,
  confirmEnrollment,
  currentStep,
  disableTwoFactor,
  pendingEnrollment,
  regenerateRecoveryCodes,
  totpFor,
  verifySecondFactor,
} from "~/auth/two-factor.server";
import { prisma } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import { createUser, signedIn } from "../factories";

const STEP = 30_000;

async function enrolledUser() {
  const user = await createUser();
  const { auth, token } = await signedIn(user.id);
  const pending = await beginEnrollment(auth);
  const key = decodeBase32IgnorePadding(pending.manualKey.replaceAll(" ", ""));
  const t0 = Date.now();
  const codes = await confirmEnrollment(auth, totpFor(key, currentStep(t0)), t0);
  return { user, auth, token, key, codes, t0 };
}

async function rejects(promise: Promise<unknown>, messageKey: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).messageKey).toBe(messageKey);
}

describe("two-factor authentication", () => {
  it("enrols with a QR code and manual key, and returns ten recovery codes once", async () => {
    const user = await createUser();
    const { auth } = await signedIn(user.id);
    const pending = await beginEnrollment(auth);
    expect(pending.qrSvg).toContain("<svg");
    expect(pending.uri).toMatch(/^otpauth:\/\/totp\//);
    // Showing the page again keeps the same pending key.
    expect((await beginEnrollment(auth)).manualKey).toBe(pending.manualKey);
    const key = decodeBase32IgnorePadding(pending.manualKey.replaceAll(" ", ""));
    await rejects(confirmEnrollment(auth, "000000" === totpFor(key, currentStep()) ? "111111" : "000000"), "twoFactor.invalidCode");
    const codes = await confirmEnrollment(auth, totpFor(key, currentStep()));
    expect(codes).toHaveLength(10);
    const stored = await prisma.recoveryCode.findMany({ where: { userId: user.id }, select: { codeHash: true } });
    expect(stored.map((s) => s.codeHash)).not.toContain(codes[0]);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).twoFactorEnabledAt).not.toBeNull();
  });

  it("has nothing pending for an account deleted since its session was read (another tab), not an error", async () => {
    const user = await createUser();
    const { auth } = await signedIn(user.id);
    await beginEnrollment(auth);
    expect(await pendingEnrollment(auth)).toBeDefined();
    await prisma.user.delete({ where: { id: user.id } });
    expect(await pendingEnrollment(auth)).toBeUndefined();
  });

  it("accepts a code once: a replayed code is refused", async () => {
    const { auth, key, t0 } = await enrolledUser();
    const later = t0 + STEP;
    const code = totpFor(key, currentStep(later));
    await verifySecondFactor(auth, code, later);
    await rejects(verifySecondFactor(auth, code, later), "twoFactor.invalidCode");
    // An older code (still inside the drift window) is also refused once a newer one was used.
    await rejects(verifySecondFactor(auth, totpFor(key, currentStep(t0)), later), "twoFactor.invalidCode");
  });

  it("refuses codes outside the drift window", async () => {
    const { auth, key, t0 } = await enrolledUser();
    await rejects(verifySecondFactor(auth, totpFor(key, currentStep(t0 + 5 * STEP)), t0 + STEP), "twoFactor.invalidCode");
  });

  it("marks the session as having passed the second factor", async () => {
    const { user, key, t0 } = await enrolledUser();
    const { auth, token } = await signedIn(user.id);
    expect((await validateSessionToken(token))!.session.twoFactorVerified).toBe(false);
    await verifySecondFactor(auth, totpFor(key, currentStep(t0 + STEP)), t0 + STEP);
    expect((await validateSessionToken(token))!.session.twoFactorVerified).toBe(true);
  });

  it("accepts each recovery code once", async () => {
    const { auth, codes } = await enrolledUser();
    await verifySecondFactor(auth, codes[3]!.toUpperCase());
    await rejects(verifySecondFactor(auth, codes[3]!), "twoFactor.invalidCode");
    await rejects(verifySecondFactor(auth, "aaaa-bbbb-cccc-dddd"), "twoFactor.invalidCode");
  });

  it("regenerates recovery codes, invalidating the old ones", async () => {
    const { auth, key, codes, t0 } = await enrolledUser();
    const fresh = await regenerateRecoveryCodes(auth, totpFor(key, currentStep(t0 + STEP)), t0 + STEP);
    await rejects(verifySecondFactor(auth, codes[0]!), "twoFactor.invalidCode");
    await verifySecondFactor(auth, fresh[0]!);
  });

  it("disables only with a valid code, and removes key and recovery codes", async () => {
    const { user, auth, key, t0 } = await enrolledUser();
    await rejects(disableTwoFactor(auth, "12345x", t0 + STEP), "twoFactor.invalidCode");
    await disableTwoFactor(auth, totpFor(key, currentStep(t0 + STEP)), t0 + STEP);
    const row = await prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.twoFactorEnabledAt).toBeNull();
    expect(row.totpKey).toBeNull();
    expect(await prisma.recoveryCode.count({ where: { userId: user.id } })).toBe(0);
  });

  it("limits guessing per user", async () => {
    const { auth, t0 } = await enrolledUser();
    const results: string[] = [];
    for (let i = 0; i < 12; i++) {
      const error = (await verifySecondFactor(auth, "000001", t0 + STEP).catch((e: DomainError) => e)) as DomainError;
      results.push(error.code);
    }
    expect(results).toContain("TOO_MANY_REQUESTS");
  });
});
