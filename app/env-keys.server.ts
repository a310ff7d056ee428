// The configuration's keys, read and checked once at start (app/env.server.ts's schema uses these):
// GitHub's secret scanning keys, and the audit digests' signing key and retired keys. A key that
// does not parse stops the start with a message naming the variable.
import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { z } from "zod";

/** A key GitHub signs secret scanning reports with: its identifier (the Github-Public-Key-Identifier
 * header) and the ECDSA P-256 public key itself. */
export interface ScanningPublicKey {
  id: string;
  key: KeyObject;
}

const SCANNING_KEYS_HINT =
  'SECRET_SCANNING_PUBLIC_KEYS must be a JSON array of {"key_identifier": "...", "key": "-----BEGIN PUBLIC KEY-----..."} (GitHub\'s /meta/public_keys/secret_scanning)';

/** GitHub's published keys, checked once at start: each an ECDSA P-256 public key in PEM. */
export const scanningKeysSchema = z.string().transform((value, ctx): ScanningPublicKey[] => {
  const fail = (problem: string) => {
    ctx.addIssue({ code: "custom", message: `${SCANNING_KEYS_HINT}: ${problem}.` });
    return z.NEVER;
  };
  let entries: unknown;
  try {
    entries = JSON.parse(value);
  } catch {
    return fail("it is not JSON");
  }
  if (!Array.isArray(entries) || entries.length === 0) return fail("it is not a non-empty array");
  const keys: ScanningPublicKey[] = [];
  for (const [index, entry] of entries.entries()) {
    const { key_identifier: id, key } = (entry ?? {}) as { key_identifier?: unknown; key?: unknown };
    if (typeof id !== "string" || !/^[\x21-\x7e]{1,256}$/.test(id)) return fail(`entry ${index} has no key_identifier`);
    if (typeof key !== "string") return fail(`entry ${index} has no key`);
    try {
      const parsed = createPublicKey(key);
      if (parsed.asymmetricKeyType !== "ec" || parsed.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
        return fail(`entry ${index} is not an ECDSA P-256 key`);
      }
      keys.push({ id, key: parsed });
    } catch {
      return fail(`entry ${index}'s key is not a PEM public key`);
    }
  }
  return keys;
});

/** PEM text as environment variables carry it: real line breaks, or "\\n" written out. */
const pemText = (value: string) => value.replace(/\\n/g, "\n").trim();

/** The Ed25519 private key audit digests are signed with (PEM, PKCS #8; docs/decisions/0061-audit-digests.md). */
export const auditSigningKeySchema = z.string().transform((value, ctx): KeyObject => {
  const fail = (problem: string) => {
    ctx.addIssue({ code: "custom", message: `AUDIT_SIGNING_KEY ${problem} (make one with: openssl genpkey -algorithm ed25519).` });
    return z.NEVER;
  };
  let key: KeyObject;
  try {
    key = createPrivateKey(pemText(value));
  } catch {
    return fail("is not a PEM private key (-----BEGIN PRIVATE KEY-----)");
  }
  return key.asymmetricKeyType === "ed25519" ? key : fail("is not an Ed25519 key");
});

const PEM_PUBLIC_KEY = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g;

/** Earlier signing keys' public halves, PEM one after another: old digests still verify after a rotation. */
export const auditRetiredKeysSchema = z.string().transform((value, ctx): KeyObject[] => {
  const fail = (problem: string) => {
    ctx.addIssue({ code: "custom", message: `AUDIT_RETIRED_KEYS ${problem}.` });
    return z.NEVER;
  };
  const blocks = pemText(value).match(PEM_PUBLIC_KEY) ?? [];
  if (blocks.length === 0) return fail("holds no PEM public key (-----BEGIN PUBLIC KEY-----)");
  const keys: KeyObject[] = [];
  for (const [index, block] of blocks.entries()) {
    let key: KeyObject;
    try {
      key = createPublicKey(block);
    } catch {
      return fail(`key ${index + 1} is not a PEM public key`);
    }
    if (key.asymmetricKeyType !== "ed25519") return fail(`key ${index + 1} is not an Ed25519 key`);
    keys.push(key);
  }
  return keys;
});
