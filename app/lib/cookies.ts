// Reading one cookie from a Cookie header, with the `cookie` package (the parser React Router's
// own cookies use). React Router's createCookie is not used for our two cookies: it stores values
// as base64 JSON, and both are plain on purpose (a random session token; `lng=de`, which people
// and scripts set by hand). An absurdly long header is not worth parsing.
import { parse } from "cookie";

const MAX_COOKIE_HEADER = 16_384;

export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header || header.length > MAX_COOKIE_HEADER) return null;
  return parse(header)[name] ?? null;
}
