// s3rver, an S3-compatible server, on HTTPS with the test certificate, in a temporary folder with
// one bucket. It checks request signatures with its fixed credentials (S3RVER / S3RVER).
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { testCertificates } from "./certificates.ts";

export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface S3Receiver {
  /** `https://127.0.0.1:<port>`: give it as the destination's endpoint with forcePathStyle. */
  endpoint: string;
  bucket: string;
  stop(): Promise<void>;
}

export async function startS3Receiver(bucket = "audit-bucket"): Promise<S3Receiver> {
  const directory = mkdtempSync(join(tmpdir(), "keyledger-s3rver-"));
  const { key, cert } = testCertificates().valid;
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    key,
    cert,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = (await server.run()) as AddressInfo;
  return {
    endpoint: `https://127.0.0.1:${address.port}`,
    bucket,
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
