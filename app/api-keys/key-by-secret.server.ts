// The leaked-key lookup: which key of the caller's organization a pasted secret is, by its hash
// (docs/decisions/0057-leaked-key-lookup.md). apiKey.lookup and the lookup page both call this.
//
// What the answer must not tell is whether a secret it does not find belongs to another
// organization, is unknown, or is not a secret at all: those all take the same path here. The
// secret's organization part is deliberately not read (a secret naming another organization
// would otherwise be answered without a query, measurably faster), malformed text is hashed like
// any other, and the one statement is the same indexed probe on (organization_id, secret_hash)
// whatever was pasted. Revoked and expired keys are found too: after a leak, "it is already
// revoked" is an answer people need.
import { Prisma } from "~/generated/prisma/client";
import { DomainError } from "~/lib/domain-error";
import { consumeEach } from "~/lib/rate-limit.server";
import { readKeyViews, toView, type ApiKeyView, type KeyManager } from "./api-keys.server";
import { LOOKUP_SECRET_MAX } from "./lookup-schema";
import { hashSecret } from "./secret.server";

/**
 * The organization's key whose secret is `secret` (surrounding whitespace ignored), in any state,
 * or null. Refuses text longer than LOOKUP_SECRET_MAX before it is hashed (400), and counts
 * against the caller's and the organization's lookup budgets (429 with Retry-After when spent).
 * Records nothing: a lookup changes nothing (decision 0057). The secret is never stored or logged.
 */
export async function findOwnKeyBySecret(access: KeyManager, secret: string): Promise<ApiKeyView | null> {
  if (secret.length > LOOKUP_SECRET_MAX) throw new DomainError("BAD_REQUEST", "keyLookup.tooLong", { params: { max: LOOKUP_SECRET_MAX } });
  await consumeEach([
    ["apiKey.lookup.user", access.user.id],
    ["apiKey.lookup.organization", access.organization.id],
  ]);
  // Control characters inside, a wrong length, a bad checksum: not a key, found as such by the
  // same probe (no secret we issue hashes to what they hash to).
  const hash = hashSecret(secret.trim());
  const [row] = await readKeyViews(access.organization.id, Prisma.sql`AND k.secret_hash = ${hash}`, Prisma.sql`k.id`);
  return row ? toView(row, new Date(), row.reportedLeak) : null;
}
