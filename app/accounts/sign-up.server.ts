// Signing up (docs/decisions/0031-sign-up-policy-and-verified-addresses.md).
//
// The policy (SIGNUP_POLICY) decides who may sign up, from the address typed and the invitation
// the person came from, before anything is looked up, so a refusal tells nothing about accounts.
// Then a taken and a free address get the same answer ("check your inbox"), the same work (one
// password hash, one insert attempt, one mail job in one transaction) and the same limits: a free
// address gets an unverified account and a link to verify it; a taken one's owner gets a note that
// someone tried. The one exception: a pending invitation for exactly this address was mailed
// there, so signing up from it proves the mailbox; that account is created verified and signed in.
import { prisma, type Tx } from "~/db.server";
import { signUpPolicy, type SignUpPolicy } from "~/env.server";
import { hashPassword } from "~/auth/password.server";
import { createSession, type SessionDevice } from "~/auth/session.server";
import { enqueueJob } from "~/jobs/queue.server";
import type { Language } from "~/i18n/config";
import { DomainError } from "~/lib/domain-error";
import { consumeEach } from "~/lib/rate-limit.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { previewInvitation } from "~/organizations/invitation-acceptance.server";
import type { MailDelivery } from "~/organizations/invitations.server";
import { enqueueVerificationMail, MAIL_MAX_ATTEMPTS } from "./email-verification.server";
import { SEND_SIGN_UP_ATTEMPT_TASK } from "./sign-up-mail.server";

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  redirectTo?: string;
}

export interface SignUpRequest {
  /** The installation's SIGNUP_POLICY unless given (tests). */
  policy?: SignUpPolicy;
  clientAddress: string;
  delivery: MailDelivery;
  device?: SessionDevice;
}

export type SignUpOutcome = { kind: "mailed" } | { kind: "signedIn"; token: string };

/** The invitation token in a `redirectTo` that leads back to an invitation's accept page. */
export function invitationTokenIn(redirectTo: string | undefined | null): string | null {
  const target = safeRedirectPath(redirectTo, "");
  if (!target) return null;
  const url = new URL(target, "https://keyledger.invalid");
  return url.pathname === "/invitations/accept" ? url.searchParams.get("token") : null;
}

/** The address a pending, unexpired invitation in `redirectTo` was mailed to, if there is one. */
export async function invitedAddressIn(redirectTo: string | undefined | null): Promise<string | null> {
  const token = invitationTokenIn(redirectTo);
  if (!token) return null;
  const invitation = await previewInvitation(token);
  return invitation.state === "pending" ? invitation.email : null;
}

/** What the sign-up page offers someone arriving with `redirectTo`: the form (with the invited
 * address, or the allowed domains, said up front) or, invitation only and no invitation, why not. */
export async function signUpPageState(redirectTo: string, policy: SignUpPolicy = signUpPolicy()) {
  const invited = await invitedAddressIn(redirectTo);
  return {
    invited,
    closed: policy.kind === "invite" && !invited,
    domains: policy.kind === "domains" ? policy.domains.join(", ") : null,
  };
}

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1);
}

/** Throws the policy's refusal for `email`; `invited` is the address of the invitation the person came from. */
export function checkSignUpPolicy(policy: SignUpPolicy, email: string, invited: string | null): void {
  if (invited === email || policy.kind === "open") return;
  if (invited) throw new DomainError("FORBIDDEN", "signUp.invitedAddressOnly", { params: { email: invited } });
  if (policy.kind === "invite") throw new DomainError("FORBIDDEN", "signUp.inviteOnly");
  if (!policy.domains.includes(domainOf(email))) {
    throw new DomainError("FORBIDDEN", "signUp.domainNotAllowed", { params: { domains: policy.domains.join(", ") } });
  }
}

/** Inserts the account unless the address is taken; returns the new account's id, or the
 * existing account's id for a taken address. One statement either way. */
async function insertUnlessTaken(tx: Tx, input: SignUpInput, passwordHash: string, verified: boolean, language: Language) {
  const [row] = await tx.$queryRaw<{ created: string | null; existing: string | null }[]>`
    WITH inserted AS (
      INSERT INTO users (id, email, name, password_hash, email_verified_at, language)
      VALUES (gen_random_uuid(), ${input.email}, ${input.name}, ${passwordHash}, ${verified ? new Date() : null}::timestamptz, ${language})
      ON CONFLICT (email) DO NOTHING
      RETURNING id
    )
    SELECT (SELECT id::text FROM inserted) AS created, (SELECT id::text FROM users WHERE email = ${input.email}) AS existing`;
  return row!;
}

export async function signUp(input: SignUpInput, request: SignUpRequest): Promise<SignUpOutcome> {
  const invited = await invitedAddressIn(input.redirectTo);
  checkSignUpPolicy(request.policy ?? signUpPolicy(), input.email, invited);
  await consumeEach([
    ["auth.signup.address", request.clientAddress],
    ["auth.signup.email", input.email],
  ]);
  // Hashed for a taken address too, so the time spent does not tell the two apart.
  const passwordHash = await hashPassword(input.password);
  const provenByInvitation = invited === input.email;
  const redirectTo = safeRedirectPath(input.redirectTo, "") || null;
  const created = await prisma.$transaction(async (tx) => {
    const { created, existing } = await insertUnlessTaken(tx, input, passwordHash, provenByInvitation, request.delivery.language);
    if (created) {
      if (!provenByInvitation) await enqueueVerificationMail(tx, created, request.delivery, redirectTo);
      return created;
    }
    // Deleted in the same instant: nobody left to tell.
    if (!existing) return null;
    await enqueueJob(
      tx,
      SEND_SIGN_UP_ATTEMPT_TASK,
      { userId: existing, language: request.delivery.language, origin: request.delivery.origin },
      { jobKey: `sign-up-attempt:${existing}`, maxAttempts: MAIL_MAX_ATTEMPTS },
    );
    return null;
  });
  if (!created || !provenByInvitation) return { kind: "mailed" };
  const { token } = await createSession(created, { twoFactorVerified: false, device: request.device });
  return { kind: "signedIn", token };
}
