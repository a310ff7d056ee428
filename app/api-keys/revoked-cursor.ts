// The position in the keys page's "Revoked keys" history: the (revokedAt, id) of the last key on a
// page, carried in the `revokedCursor` search param. Opaque to people and programs (base64url);
// anything that is not exactly what we make is a 400 with a translated message, never a 500 and
// never a silent first page. A cursor names no organization: the read is always scoped by the
// caller's access, so a cursor made elsewhere only says where to start among the caller's own keys.
// Client-safe (btoa/atob, no Buffer).
import { isDateInRange } from "~/lib/dates";
import { DomainError } from "~/lib/domain-error";
import { isUuid } from "~/lib/ids";

/** The search param of the keys page that holds the cursor. */
export const REVOKED_CURSOR_PARAM = "revokedCursor";

/** Revoked keys per page, on the keys page and in apiKey.list. */
export const REVOKED_PAGE_SIZE = 10;

export interface RevokedCursor {
  revokedAt: Date;
  id: string;
}

const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeRevokedCursor(cursor: RevokedCursor): string {
  return btoa(`${cursor.revokedAt.toISOString()}|${cursor.id}`).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function decode(value: string): RevokedCursor | null {
  // 24 characters of date, "|", 36 of id: 61 bytes, 82 characters of base64url.
  if (!/^[A-Za-z0-9_-]{1,120}$/.test(value)) return null;
  let decoded: string;
  try {
    decoded = atob(value.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return null;
  }
  const [iso, id, ...rest] = decoded.split("|");
  if (rest.length || !iso || !ISO_MILLIS.test(iso) || !isUuid(id)) return null;
  const revokedAt = new Date(iso);
  // Real instants only (no 2026-02-30), within what PostgreSQL and the app accept.
  if (Number.isNaN(revokedAt.getTime()) || revokedAt.toISOString() !== iso || !isDateInRange(revokedAt)) return null;
  return { revokedAt, id: id.toLowerCase() };
}

/** A cursor given as a value (apiKey.list's `revokedCursor`); a bad one is a 400. */
export function decodeRevokedCursor(value: string): RevokedCursor {
  const cursor = decode(value.trim());
  if (!cursor) throw new DomainError("BAD_REQUEST", "apiKey.badListCursor");
  return cursor;
}

/** The cursor of the page's search params: none for the first page; a bad one is a 400. */
export function parseRevokedCursor(params: URLSearchParams): RevokedCursor | undefined {
  const values = params.getAll(REVOKED_CURSOR_PARAM);
  if (values.length === 0 || (values.length === 1 && values[0]!.trim() === "")) return undefined;
  const cursor = values.length === 1 ? decode(values[0]!.trim()) : null;
  if (!cursor) throw new DomainError("BAD_REQUEST", "apiKey.badRevokedCursor");
  return cursor;
}
