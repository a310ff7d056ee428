// Creates a verified account with no usable password and a one-time link to choose one: the way
// to a real deployment's first account, where sign-up is by invitation only
// (docs/decisions/0031-sign-up-policy-and-verified-addresses.md). Used by
// `npm run admin:create-user -- EMAIL [--name NAME] [--platform-admin]`.
//
// The link is a password-reset link (the reset page sets the password and signs nothing in), kept
// like one: only its SHA-256 is stored. It works once, for FIRST_PASSWORD_LINK_LIFETIME, since
// whoever runs the command may hand it on rather than open it at once.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { z } from "zod";
import { emailSchema } from "~/auth/schemas";
import { storedText } from "~/lib/text";
import { hashPassword } from "../../app/auth/password.server.ts";
import { newHashedLinkToken, newLinkToken } from "../../app/lib/link-token.ts";

export const FIRST_PASSWORD_LINK_LIFETIME = 24 * 60 * 60 * 1000;

export interface CreateUserOptions {
  email: string;
  name?: string;
  platformAdmin?: boolean;
}

export type CreateUserResult =
  | { kind: "created"; userId: string; email: string; link: string; expiresAt: Date }
  | { kind: "invalid"; reason: string }
  | { kind: "taken"; email: string };

/** Exactly the rules of sign-up and sign-in (app/auth/schemas.ts, app/lib/text.ts): an address the
 * sign-in form would refuse (a look-alike letter, a control or invisible character) would make an
 * account nobody can ever sign in to, and a name the app would refuse could not be saved again. */
const commandInput = z.object({ email: emailSchema, name: storedText({ max: 80 }) });

export async function createUserWithPasswordLink(
  databaseUrl: string,
  origin: string,
  options: CreateUserOptions,
): Promise<CreateUserResult> {
  const typed = options.email.trim();
  const parsed = commandInput.safeParse({ email: typed, name: options.name ?? typed.slice(0, Math.max(typed.indexOf("@"), 0)) });
  if (!parsed.success) {
    return parsed.error.issues.some((issue) => issue.path[0] === "email")
      ? { kind: "invalid", reason: `"${options.email}" is not an e-mail address.` }
      : { kind: "invalid", reason: "The name must be 1 to 80 characters without control or invisible characters." };
  }
  const { email, name } = parsed.data;
  // Nobody knows this password: the account is usable only once the link has set one.
  const passwordHash = await hashPassword(newLinkToken());
  const { token, hash: tokenHash } = newHashedLinkToken();
  const expiresAt = new Date(Date.now() + FIRST_PASSWORD_LINK_LIFETIME);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    const inserted = await client.query<{ id: string }>(
      `INSERT INTO users (id, email, name, password_hash, is_platform_admin, email_verified_at)
       VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT (email) DO NOTHING RETURNING id`,
      [randomUUID(), email, name, passwordHash, options.platformAdmin ?? false],
    );
    const userId = inserted.rows[0]?.id;
    if (!userId) {
      await client.query("ROLLBACK");
      return { kind: "taken", email };
    }
    await client.query("INSERT INTO password_resets (user_id, token_hash, expires_at) VALUES ($1, $2, $3)", [userId, tokenHash, expiresAt]);
    await client.query("COMMIT");
    return { kind: "created", userId, email, link: `${origin}/reset-password?token=${encodeURIComponent(token)}`, expiresAt };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}
