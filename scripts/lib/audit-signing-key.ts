// The audit digests' signing key on the embedded database (docs/decisions/0061-audit-digests.md,
// Key management): `npm start` makes one Ed25519 key on the first start and keeps it beside the
// embedded data directory (not inside it, and never in the database: whoever can rewrite the log
// must not also find the key that signs its digests). The file is created with the exclusive flag,
// so two starts at once end with one key, and readable by its owner only.
import { generateKeyPairSync } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const SIGNING_KEY_FILE = "audit-signing-key.pem";

/** Where the key of the embedded database in `dataDir` lives: beside it (`.data/audit-signing-key.pem` by default). */
export function signingKeyPath(dataDir: string): string {
  return join(dirname(dataDir), SIGNING_KEY_FILE);
}

const isCode = (error: unknown, code: string) => (error as { code?: unknown }).code === code;

/** Group and other permission bits: a private key has none. */
const NOT_OWNER_ONLY = 0o077;

/**
 * The key's PEM from `path`, made first when the file does not exist. `created` says whether this
 * call made it (the start then says where it is and that it must be backed up); `tightened` that
 * the file was readable by others (a copy restored with the wrong mode) and is owner-only now.
 */
export function readOrCreateSigningKey(path: string): { pem: string; created: boolean; tightened: boolean } {
  mkdirSync(dirname(path), { recursive: true });
  // Written first, read on EEXIST: the file a start (this one before, or another one right now)
  // made is the key, and a write never replaces it.
  const pem = String(generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }));
  try {
    writeFileSync(path, pem, { flag: "wx", mode: 0o600 });
    return { pem, created: true, tightened: false };
  } catch (error) {
    if (!isCode(error, "EEXIST")) throw error;
    const tightened = (statSync(path).mode & NOT_OWNER_ONLY) !== 0;
    if (tightened) chmodSync(path, 0o600);
    return { pem: readFileSync(path, "utf8"), created: false, tightened };
  }
}

/**
 * Sets AUDIT_SIGNING_KEY from the embedded database's key file unless it is already set (a key the
 * operator gave wins). The file path when it was used, undefined otherwise.
 */
export function useEmbeddedSigningKey(
  env: NodeJS.ProcessEnv,
  dataDir: string,
): { path: string; created: boolean; tightened: boolean } | undefined {
  if (env.AUDIT_SIGNING_KEY) return undefined;
  const path = signingKeyPath(dataDir);
  const { pem, created, tightened } = readOrCreateSigningKey(path);
  env.AUDIT_SIGNING_KEY = pem;
  return { path, created, tightened };
}
