// The keys digests are signed and checked with (docs/decisions/0061-audit-digests.md, Key
// management). The private key comes from AUDIT_SIGNING_KEY, never from the database the digests
// protect: whoever can rewrite the log must not also be able to re-sign it. Retired keys' public
// halves (AUDIT_RETIRED_KEYS) stay trusted, so digests signed before a rotation still verify.
// A key's id is derived from the public key itself (no registry that could disagree with it).
import { createHash, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { env, type Env } from "~/env.server";

export interface PublicSigningKey {
  id: string;
  key: KeyObject;
  /** "current" signs new digests; "retired" only checks old ones. */
  status: "current" | "retired";
}

export interface SigningKey {
  id: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** The key's id: the first 16 hex digits of the SHA-256 of its public key (SubjectPublicKeyInfo, DER). */
export function signingKeyId(publicKey: KeyObject): string {
  return createHash("sha256")
    .update(publicKey.export({ type: "spki", format: "der" }))
    .digest("hex")
    .slice(0, 16);
}

/** The configured signing key (AUDIT_SIGNING_KEY), if any. */
export function currentSigningKey(config: Pick<Env, "AUDIT_SIGNING_KEY"> = env()): SigningKey | undefined {
  const privateKey = config.AUDIT_SIGNING_KEY;
  if (!privateKey) return undefined;
  const publicKey = createPublicKey(privateKey);
  return { id: signingKeyId(publicKey), privateKey, publicKey };
}

/** Every key a digest may be signed with: the current one, then AUDIT_RETIRED_KEYS. */
export function configuredKeys(config: Pick<Env, "AUDIT_SIGNING_KEY" | "AUDIT_RETIRED_KEYS"> = env()): PublicSigningKey[] {
  return trustedKeys(currentSigningKey(config), config.AUDIT_RETIRED_KEYS ?? []);
}

/** The trusted public keys: the current one first, then the retired ones (duplicates dropped). */
export function trustedKeys(current: SigningKey | undefined, retired: readonly KeyObject[]): PublicSigningKey[] {
  const keys: PublicSigningKey[] = current ? [{ id: current.id, key: current.publicKey, status: "current" }] : [];
  for (const key of retired) {
    const id = signingKeyId(key);
    if (!keys.some((k) => k.id === id)) keys.push({ id, key, status: "retired" });
  }
  return keys;
}

/** The published form of a key: `GET /.well-known/audit-log-keys.json`. */
export function publishedKey(key: PublicSigningKey): { id: string; alg: "Ed25519"; publicKey: string; status: string } {
  return { id: key.id, alg: "Ed25519", publicKey: String(key.key.export({ type: "spki", format: "pem" })), status: key.status };
}

/** Ed25519 signature of the text (UTF-8). */
export function signText(key: SigningKey, text: string): Buffer {
  return sign(null, Buffer.from(text, "utf8"), key.privateKey);
}

/** Whether `signature` is the key's signature of the text. */
export function signatureHolds(key: KeyObject, text: string, signature: Buffer): boolean {
  try {
    return verify(null, Buffer.from(text, "utf8"), key, signature);
  } catch {
    return false;
  }
}
