// Entity tags for answers that are the same for every caller (public documents): the tag of a body,
// and whether a conditional request's If-None-Match names it (RFC 9110, 13.1.2).
import { createHash } from "node:crypto";

/** A strong tag derived from the body: equal bodies, equal tags, on every instance. */
export function entityTagOf(body: string): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
}

/** True when `ifNoneMatch` (a list of entity tags, or `*`) names `etag`, weak or strong (weak comparison). */
export function ifNoneMatchNames(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed.replace(/^W\//, "") === etag;
  });
}
