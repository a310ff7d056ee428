// The browser tests' audit signing key: an Ed25519 key derived from a fixed seed (no private key in
// the repository), given to the app by start-server.ts as AUDIT_SIGNING_KEY; the tests seal logs
// with it (audit-sealing.ts), as the digest job would once a period closed.
import { createHash, createPrivateKey } from "node:crypto";

/** PKCS #8 DER of an Ed25519 private key is this prefix and the 32-byte seed. */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

const seed = createHash("sha256").update("keyledger e2e audit signing key").digest();

export const E2E_AUDIT_PRIVATE_KEY = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: "der", type: "pkcs8" });

/** The key as AUDIT_SIGNING_KEY carries it (PEM). */
export const E2E_AUDIT_SIGNING_KEY_PEM = String(E2E_AUDIT_PRIVATE_KEY.export({ type: "pkcs8", format: "pem" }));
