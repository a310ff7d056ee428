// Passwords are hashed with argon2id (OWASP's recommended parameters). Length is bounded before
// hashing: argon2 on a megabyte string would let one request burn a core.
import { hash, verify } from "@node-rs/argon2";
import { PASSWORD_MAX_LENGTH } from "./password-rules";

const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (password.length > PASSWORD_MAX_LENGTH) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A real hash of a random password: verifying against it costs what a real check costs,
 * so an unknown e-mail cannot be told apart from a wrong password by timing. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(crypto.randomUUID());
  return dummyHash;
}
