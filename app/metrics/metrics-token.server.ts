// Who may read /metrics: a request whose Authorization is `Bearer <METRICS_TOKEN>`. Both sides
// are hashed to 32 bytes and compared in constant time, so neither the token's characters nor its
// length can be learnt from how long a refusal takes. Nothing here logs the header.
import { createHash, timingSafeEqual } from "node:crypto";

/** Longer than any token METRICS_TOKEN accepts (256) with its scheme: refused without hashing. */
const MAX_HEADER_LENGTH = 1024;
const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/** A checker for one configured token. */
export function metricsTokenCheck(token: string): (authorization: string | string[] | undefined) => boolean {
  const expected = digest(token);
  return (authorization) => {
    if (typeof authorization !== "string" || authorization.length > MAX_HEADER_LENGTH) return false;
    const presented = BEARER.exec(authorization)?.[1];
    return presented !== undefined && timingSafeEqual(digest(presented), expected);
  };
}
