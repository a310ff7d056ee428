// Certificates for the HTTPS test receivers, made with `openssl` when a test first asks: a test CA,
// a certificate it signed for localhost/127.0.0.1/::1 (trusted once the CA is), and one it signed
// that has already expired. Trust the CA in this process with trustTestCa(); a spawned server
// trusts it with NODE_EXTRA_CA_CERTS=<caPath>.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tls from "node:tls";

export interface KeyPair {
  key: string;
  cert: string;
}

export interface TestCertificates {
  /** The CA's certificate (PEM) and its file, for NODE_EXTRA_CA_CERTS. */
  ca: string;
  caPath: string;
  /** Signed by the CA for localhost, 127.0.0.1 and ::1. */
  valid: KeyPair;
  /** Signed by the CA for the same names, but its validity ended yesterday. */
  expired: KeyPair;
}

let made: TestCertificates | undefined;

function openssl(dir: string, args: string[]) {
  execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
}

function signedLeaf(dir: string, name: string, days: string): KeyPair {
  const curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  openssl(dir, ["req", ...curve, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", "/CN=localhost"]);
  writeFileSync(join(dir, `${name}.ext`), "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\n");
  const sign = ["-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-extfile", `${name}.ext`];
  openssl(dir, ["x509", "-req", "-in", `${name}.csr`, ...sign, "-out", `${name}.crt`, "-days", days]);
  return { key: readFileSync(join(dir, `${name}.key`), "utf8"), cert: readFileSync(join(dir, `${name}.crt`), "utf8") };
}

export function testCertificates(): TestCertificates {
  if (made) return made;
  const dir = mkdtempSync(join(tmpdir(), "keyledger-receivers-"));
  const curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  openssl(dir, ["req", "-x509", ...curve, "-keyout", "ca.key", "-out", "ca.crt", "-subj", "/CN=KeyLedger Test CA", "-days", "2"]);
  made = {
    ca: readFileSync(join(dir, "ca.crt"), "utf8"),
    caPath: join(dir, "ca.crt"),
    valid: signedLeaf(dir, "valid", "2"),
    // OpenSSL 3.0 takes a negative validity: notAfter lies before notBefore, so the certificate is expired now.
    expired: signedLeaf(dir, "expired", "-1"),
  };
  return made;
}

/** Makes this process's TLS clients trust the test CA as well as the system's. */
export function trustTestCa(): void {
  const { ca } = testCertificates();
  const current = tls.getCACertificates("default");
  if (!current.includes(ca)) tls.setDefaultCACertificates([...current, ca]);
}
