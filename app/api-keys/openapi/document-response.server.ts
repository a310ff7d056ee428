// The answer to GET /api/openapi.json: the document for the instance's public origin, cacheable.
// The document changes only with a release (or the origin), so clients and proxies may keep it for
// a few minutes and revalidate it with its ETag; any origin may read it (it is public and carries
// no credentials), so online OpenAPI viewers and code generators can load it by URL.
import { createHash } from "node:crypto";
import { env } from "~/env.server";
import { authenticateOpenApiDocument } from "./authenticate-document";

/** Five minutes: a new release's document is seen soon, and a busy caller revalidates cheaply. */
const MAX_AGE_SECONDS = 300;

/** Serialized once per origin: the document is the same for every request to it. */
const serialized = new Map<string, { body: string; etag: string }>();
const MAX_ORIGINS = 16;

function documentFor(origin: string) {
  let entry = serialized.get(origin);
  if (!entry) {
    const body = `${JSON.stringify(authenticateOpenApiDocument(origin), null, 2)}\n`;
    entry = { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"` };
    if (serialized.size >= MAX_ORIGINS) serialized.clear();
    serialized.set(origin, entry);
  }
  return entry;
}

/** True when `ifNoneMatch` (a list of entity tags, or `*`) names `etag`, weak or strong (RFC 9110, 13.1.2). */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed.replace(/^W\//, "") === etag;
  });
}

/** `origin`: the instance's public origin (APP_ORIGIN, else the request's). */
export function openApiDocumentResponse(request: Request, origin: string): Response {
  const { body, etag } = documentFor(origin);
  const headers = new Headers({
    "Cache-Control": `public, max-age=${MAX_AGE_SECONDS}`,
    ETag: etag,
    "Access-Control-Allow-Origin": "*",
  });
  // Without APP_ORIGIN the servers entry came from the request's Host: a shared cache keeps one per Host.
  if (!env().APP_ORIGIN) headers.set("Vary", "Host");
  if (matches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(body, { headers });
}
