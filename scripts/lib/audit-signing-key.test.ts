// The embedded database's signing key: made once beside the data directory, owner-only, read back
// on the next start, one key when two starts race, and never over a key the operator set.
import { chmodSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { auditSigningKeySchema } from "../../app/env-keys.server.ts";
import { readOrCreateSigningKey, signingKeyPath, useEmbeddedSigningKey } from "./audit-signing-key.ts";

const scratch = () => mkdtempSync(join(tmpdir(), "keyledger-signing-key-"));

describe("the embedded database's signing key", () => {
  it("lives beside the data directory: .data/audit-signing-key.pem for .data/postgres", () => {
    expect(signingKeyPath(join("/srv", ".data", "postgres"))).toBe(join("/srv", ".data", "audit-signing-key.pem"));
  });

  it("is made on the first start as an Ed25519 PEM readable by its owner only, and read back after", () => {
    const dir = scratch();
    const env: NodeJS.ProcessEnv = {};
    const first = useEmbeddedSigningKey(env, join(dir, "nested", "postgres"));
    expect(first).toEqual({ path: join(dir, "nested", "audit-signing-key.pem"), created: true, tightened: false });
    expect(statSync(first!.path).mode & 0o777).toBe(0o600);
    expect(auditSigningKeySchema.parse(env.AUDIT_SIGNING_KEY).asymmetricKeyType).toBe("ed25519");
    const again: NodeJS.ProcessEnv = {};
    expect(useEmbeddedSigningKey(again, join(dir, "nested", "postgres"))).toEqual({ path: first!.path, created: false, tightened: false });
    expect(again.AUDIT_SIGNING_KEY).toBe(env.AUDIT_SIGNING_KEY);
  });

  it("keeps the file another start wrote first (two starts racing), never replacing it", () => {
    const path = join(scratch(), "audit-signing-key.pem");
    writeFileSync(path, "the other start's key", { mode: 0o600 });
    expect(readOrCreateSigningKey(path)).toEqual({ pem: "the other start's key", created: false, tightened: false });
  });

  it("makes a key file others can read (a copy restored with the wrong mode) owner-only again, and says so", () => {
    const path = join(scratch(), "audit-signing-key.pem");
    writeFileSync(path, "a restored key");
    chmodSync(path, 0o644);
    expect(readOrCreateSigningKey(path)).toEqual({ pem: "a restored key", created: false, tightened: true });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("leaves AUDIT_SIGNING_KEY alone when the operator set one, and makes no file", () => {
    const dir = scratch();
    const env: NodeJS.ProcessEnv = { AUDIT_SIGNING_KEY: "given" };
    expect(useEmbeddedSigningKey(env, join(dir, "postgres"))).toBeUndefined();
    expect(env.AUDIT_SIGNING_KEY).toBe("given");
    expect(() => statSync(signingKeyPath(join(dir, "postgres")))).toThrow(/ENOENT/);
  });
});
