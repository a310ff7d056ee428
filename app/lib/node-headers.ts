import type { IncomingMessage } from "node:http";

/** Node's header object as a fetch Headers (repeated headers kept; HTTP/2 pseudo-headers skipped). */
export function headersFromNode(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith(":")) continue;
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return headers;
}
