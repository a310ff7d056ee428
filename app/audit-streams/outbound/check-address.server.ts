// The address check at save time, so an admin learns at once that a destination will be refused
// rather than from its first failed delivery. It is advice, not the guard: names can change what
// they resolve to, so every connection is checked again (guarded-connection.server.ts). A name that
// does not resolve now passes (it may be set up after the stream), and its deliveries fail as `dns`.
import dns from "node:dns";
import { ipLiteral, refusedRange } from "~/audit-streams/outbound/address-policy";
import { outboundPolicy } from "~/audit-streams/outbound/policy.server";
import type { Destination } from "~/audit-streams/destinations";
import type { OutboundPolicy } from "~/audit-streams/outbound/send-result";
import type { ErrorKey } from "~/lib/error-key";

/** How long the save waits for a name to resolve before letting it pass. */
const SAVE_LOOKUP_TIMEOUT_MS = 3_000;

/** The URL a destination connects to; null for S3 without an endpoint (AWS's own public hosts). */
export function destinationUrl(destination: Destination): string | null {
  if (destination.kind === "s3") return destination.settings.endpoint ?? null;
  return destination.settings.url;
}

function resolveAll(hostname: string): Promise<string[]> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve([]), SAVE_LOOKUP_TIMEOUT_MS);
    dns.lookup(hostname, { all: true }, (error, addresses) => {
      clearTimeout(timer);
      resolve(error ? [] : addresses.map((a) => a.address));
    });
  });
}

/** Why the destination's address will be refused (an `errors:` key), or null when it may be saved. */
export async function checkDestinationAddress(
  destination: Destination,
  policy: OutboundPolicy = outboundPolicy(),
): Promise<ErrorKey | null> {
  const text = destinationUrl(destination);
  if (text === null) return null;
  const url = URL.parse(text);
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) return "auditStream.urlInvalid";
  if (policy.allowPrivateNetworks) return null;
  if (url.protocol === "http:") return "auditStream.httpsRequired";
  const literal = ipLiteral(url.hostname);
  const addresses = literal ? [literal] : await resolveAll(url.hostname);
  return addresses.some((address) => refusedRange(address) !== null) ? "auditStream.privateAddress" : null;
}
