// How one batch becomes request bodies a receiver takes: entries in stream order, as many per body
// as fit within a byte cap (and, for Datadog, an entry cap). The webhook, Splunk and Datadog
// senders share it; each sends its bodies one after another and fails the whole batch when one
// fails (docs/audit-stream-format.md, "Request size"; docs/decisions/0054-stream-outbound.md).

/**
 * The largest webhook or Splunk request body, in bytes: 96 KiB, under Express's default JSON limit
 * of 100 kB (body-parser's `100kb`, 102,400 bytes; NestJS and most Node receivers inherit it) and so
 * under every larger default (Fastify 1 MiB, nginx's `client_max_body_size` 1 MB in front of many
 * collectors). A typical 500-event batch (~200 kB) is then two or three requests, each a fresh TLS
 * connection: a small cost beside a receiver that answers 413 to every retry and stalls the stream.
 */
export const REQUEST_MAX_BYTES = 96 * 1024;

export interface BodyLimit {
  /** The largest body, envelope and separators included. */
  maxBytes: number;
  /** The most entries in one body; no cap when left out. */
  maxEntries?: number;
  /** Bytes of the body around its entries: the webhook's `{"type":…,"data":[` `]}`, Datadog's `[` `]`. */
  envelopeBytes: number;
  /** Bytes between two entries: `,` in a JSON array, the newline between Splunk's event objects. */
  separatorBytes: number;
}

/**
 * The items in consecutive groups, in order, each group's body within `limit`. An item that alone
 * exceeds the cap goes in a group of its own (it cannot be cut without changing the event): the
 * receiver takes it or refuses it, and a refusal shows on the stream as that request's failure.
 */
export function splitIntoBodies<T>(items: readonly T[], bytesOf: (item: T) => number, limit: BodyLimit): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let size = limit.envelopeBytes;
  for (const item of items) {
    const bytes = bytesOf(item);
    const added = current.length > 0 ? limit.separatorBytes + bytes : bytes;
    const full = limit.maxEntries !== undefined && current.length === limit.maxEntries;
    if (current.length > 0 && (full || size + added > limit.maxBytes)) {
      groups.push(current);
      current = [];
      size = limit.envelopeBytes;
    }
    size += current.length > 0 ? limit.separatorBytes + bytes : bytes;
    current.push(item);
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
