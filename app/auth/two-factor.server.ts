// TOTP two-factor authentication (RFC 6238: 30 s steps, 6 digits, one step of clock drift either
// way). A code is accepted once: the highest accepted time step is stored and must grow, so a
// code seen over someone's shoulder cannot be replayed. Recovery codes are stored hashed and
// each works once.
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32UpperCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { createTOTPKeyURI, generateHOTP } from "@oslojs/otp";
import { timingSafeEqual } from "node:crypto";
import QRCode from "qrcode";
import { prisma } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import { consume } from "~/lib/rate-limit.server";
import { markSessionTwoFactorVerified, type Auth } from "./session.server";

const STEP_SECONDS = 30;
const DIGITS = 6;
const DRIFT_STEPS = 1;
const RECOVERY_CODE_COUNT = 10;
const ISSUER = "KeyLedger";

export function currentStep(now = Date.now()): bigint {
  return BigInt(Math.floor(now / 1000 / STEP_SECONDS));
}

export function totpFor(key: Uint8Array, step: bigint): string {
  return generateHOTP(key, step, DIGITS);
}

function sameCode(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** The time step a code belongs to, within the allowed drift, or null. */
function matchingStep(key: Uint8Array, code: string, now: number): bigint | null {
  const step = currentStep(now);
  for (let offset = -DRIFT_STEPS; offset <= DRIFT_STEPS; offset++) {
    const candidate = step + BigInt(offset);
    if (sameCode(totpFor(key, candidate), code)) return candidate;
  }
  return null;
}

/** Accepts a TOTP code once: the step must be newer than any accepted before (atomic). */
async function acceptTotp(userId: string, key: Uint8Array, code: string, now: number): Promise<boolean> {
  const step = matchingStep(key, code, now);
  if (step === null) return false;
  const updated = await prisma.user.updateMany({
    where: { id: userId, OR: [{ lastTotpStep: null }, { lastTotpStep: { lt: step } }] },
    data: { lastTotpStep: step },
  });
  return updated.count === 1;
}

function hashRecoveryCode(code: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(code.toLowerCase().replace(/[^a-z0-9]/g, ""))));
}

function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = new Uint8Array(10);
    crypto.getRandomValues(bytes);
    const text = encodeBase32UpperCaseNoPadding(bytes).toLowerCase(); // 16 chars, 80 bits
    return `${text.slice(0, 4)}-${text.slice(4, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}`;
  });
}

async function replaceRecoveryCodes(userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await prisma.$transaction([
    prisma.recoveryCode.deleteMany({ where: { userId } }),
    prisma.recoveryCode.createMany({ data: codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code) })) }),
  ]);
  return codes;
}

export interface PendingEnrollment {
  manualKey: string;
  uri: string;
  qrSvg: string;
}

async function describeKey(email: string, key: Uint8Array): Promise<PendingEnrollment> {
  const uri = createTOTPKeyURI(ISSUER, email, key, STEP_SECONDS, DIGITS);
  const qrSvg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return {
    manualKey: encodeBase32UpperCaseNoPadding(key)
      .replace(/(.{4})/g, "$1 ")
      .trim(),
    uri,
    qrSvg,
  };
}

/** Starts (or shows again) an enrollment: a new key is kept on the user until confirmed. */
export async function beginEnrollment(auth: Auth): Promise<PendingEnrollment> {
  const user = await prisma.user.findUniqueOrThrow({ where: { id: auth.user.id }, select: { totpKey: true, twoFactorEnabledAt: true } });
  if (user.twoFactorEnabledAt) throw new DomainError("CONFLICT", "twoFactor.alreadyEnabled");
  let key = user.totpKey ? new Uint8Array(user.totpKey) : null;
  if (!key) {
    key = new Uint8Array(20);
    crypto.getRandomValues(key);
    await prisma.user.update({ where: { id: auth.user.id }, data: { totpKey: Buffer.from(key) }, select: { id: true } });
  }
  return describeKey(auth.user.email, key);
}

/** The enrollment waiting for its confirmation code, if there is one. Reads only: showing a form
 * again after a wrong code must not start an enrollment nobody asked for. */
export async function pendingEnrollment(auth: Auth): Promise<PendingEnrollment | undefined> {
  // The account may have been deleted since the session was read (another tab): nothing pending.
  const user = await prisma.user.findUnique({ where: { id: auth.user.id }, select: { totpKey: true, twoFactorEnabledAt: true } });
  return user?.totpKey && !user.twoFactorEnabledAt ? describeKey(auth.user.email, new Uint8Array(user.totpKey)) : undefined;
}

/** Confirms the pending key with a code; turns 2FA on and returns the recovery codes (once). */
export async function confirmEnrollment(auth: Auth, code: string, now = Date.now()): Promise<string[]> {
  await consume("auth.twofactor.user", auth.user.id);
  const user = await prisma.user.findUniqueOrThrow({ where: { id: auth.user.id }, select: { totpKey: true, twoFactorEnabledAt: true } });
  if (user.twoFactorEnabledAt) throw new DomainError("CONFLICT", "twoFactor.alreadyEnabled");
  if (!user.totpKey) throw new DomainError("CONFLICT", "twoFactor.noPendingEnrollment");
  if (!(await acceptTotp(auth.user.id, new Uint8Array(user.totpKey), code, now)))
    throw new DomainError("BAD_REQUEST", "twoFactor.invalidCode");
  await prisma.user.update({ where: { id: auth.user.id }, data: { twoFactorEnabledAt: new Date(now) }, select: { id: true } });
  await markSessionTwoFactorVerified(auth.session.id);
  return replaceRecoveryCodes(auth.user.id);
}

async function enabledKey(userId: string): Promise<Uint8Array> {
  const user = await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { totpKey: true, twoFactorEnabledAt: true } });
  if (!user.twoFactorEnabledAt || !user.totpKey) throw new DomainError("CONFLICT", "twoFactor.notEnrolled");
  return new Uint8Array(user.totpKey);
}

async function consumeRecoveryCode(userId: string, code: string): Promise<boolean> {
  const used = await prisma.recoveryCode.updateMany({
    where: { userId, codeHash: hashRecoveryCode(code), usedAt: null },
    data: { usedAt: new Date() },
  });
  return used.count === 1;
}

/**
 * Whether a TOTP code or an unused recovery code of an enrolled account is right (limited per user
 * like every second-factor attempt). `useUp` records it (the TOTP step, the recovery code) so it
 * cannot serve twice; without it the code is only checked, for a step that deletes everything the
 * code protects (account deletion): if that step then fails, the person still has the code.
 */
export async function secondFactorMatches(userId: string, code: string, { useUp, now = Date.now() }: { useUp: boolean; now?: number }) {
  await consume("auth.twofactor.user", userId);
  const key = await enabledKey(userId);
  const compact = code.replace(/\s+/g, "");
  if (/^\d{6}$/.test(compact)) return useUp ? acceptTotp(userId, key, compact, now) : matchingStep(key, compact, now) !== null;
  if (useUp) return consumeRecoveryCode(userId, code);
  return (await prisma.recoveryCode.count({ where: { userId, codeHash: hashRecoveryCode(code), usedAt: null } })) === 1;
}

/** The second sign-in step: a TOTP code or an unused recovery code. */
export async function verifySecondFactor(auth: Auth, code: string, now = Date.now()): Promise<void> {
  if (!(await secondFactorMatches(auth.user.id, code, { useUp: true, now }))) throw new DomainError("BAD_REQUEST", "twoFactor.invalidCode");
  await markSessionTwoFactorVerified(auth.session.id);
}

export async function disableTwoFactor(auth: Auth, code: string, now = Date.now()): Promise<void> {
  await consume("auth.twofactor.user", auth.user.id);
  const key = await enabledKey(auth.user.id);
  if (!(await acceptTotp(auth.user.id, key, code, now))) throw new DomainError("BAD_REQUEST", "twoFactor.invalidCode");
  await prisma.$transaction([
    prisma.user.update({ where: { id: auth.user.id }, data: { totpKey: null, twoFactorEnabledAt: null }, select: { id: true } }),
    prisma.recoveryCode.deleteMany({ where: { userId: auth.user.id } }),
  ]);
}

export async function regenerateRecoveryCodes(auth: Auth, code: string, now = Date.now()): Promise<string[]> {
  await consume("auth.twofactor.user", auth.user.id);
  const key = await enabledKey(auth.user.id);
  if (!(await acceptTotp(auth.user.id, key, code, now))) throw new DomainError("BAD_REQUEST", "twoFactor.invalidCode");
  return replaceRecoveryCodes(auth.user.id);
}

export async function unusedRecoveryCodeCount(userId: string): Promise<number> {
  return prisma.recoveryCode.count({ where: { userId, usedAt: null } });
}
