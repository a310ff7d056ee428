// Sign-in (sign-up is app/accounts/sign-up.server.ts). It answers one message for an unknown e-mail and a wrong password,
// spends the same argon2 time on both, and limits failed attempts per account and per client address.
// An account whose address was never proven does not sign in with its password either (the same
// message): whoever signed it up chose that password, so if it worked, signing up with someone's
// address and then signing in would tell whether the address was free before
// (docs/decisions/0031-sign-up-policy-and-verified-addresses.md). Its mailed link signs it in.
import { prisma } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import { consume, refund, reset } from "~/lib/rate-limit.server";
import { dummyPasswordHash, verifyPassword } from "./password.server";
import type { Language } from "~/i18n/config";
import { createSession, invalidateSession, type SessionDevice } from "./session.server";
import { rememberUserLanguage } from "./user-language.server";

export interface SignedIn {
  token: string;
  twoFactorPending: boolean;
}

/** A password attempt as sign-in counts it: one point of the client's and one of the account's
 * budget, taken before the password is checked (429 once either is spent). */
export async function spendSignInAttempt(email: string, clientAddress: string): Promise<void> {
  await consume("auth.signin.address", clientAddress);
  await consume("auth.signin.account", email);
}

/** After a right password: only failures count, so the account's are cleared and the client's
 * point is given back. */
export async function clearSignInFailures(email: string, clientAddress: string): Promise<void> {
  await reset("auth.signin.account", email);
  await refund("auth.signin.address", clientAddress);
}

async function firstOrganizationOf(userId: string): Promise<string | null> {
  const membership = await prisma.membership.findFirst({
    where: { userId },
    select: { organizationId: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return membership?.organizationId ?? null;
}

export async function signIn(
  input: { email: string; password: string },
  clientAddress: string,
  previousSessionId?: string,
  device?: SessionDevice,
  /** The page's language: remembered for the person's background mails. */
  language?: Language,
): Promise<SignedIn> {
  await spendSignInAttempt(input.email, clientAddress);
  const user = await prisma.user.findUnique({
    where: { email: input.email },
    select: { id: true, passwordHash: true, twoFactorEnabledAt: true, emailVerifiedAt: true, deletedAt: true },
  });
  const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!user || user.deletedAt || !user.emailVerifiedAt || !valid) throw new DomainError("UNAUTHORIZED", "invalidCredentials");
  await clearSignInFailures(input.email, clientAddress);
  // A new session id on every sign-in: whatever session the browser held before is ended.
  if (previousSessionId) await invalidateSession(previousSessionId);
  if (language) await rememberUserLanguage(user.id, language);
  const { token } = await createSession(user.id, {
    twoFactorVerified: false,
    activeOrganizationId: await firstOrganizationOf(user.id),
    device,
  });
  return { token, twoFactorPending: user.twoFactorEnabledAt !== null };
}
