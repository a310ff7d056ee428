// The position in the keys page's "Revoked keys" history: the (revokedAt, id) of the last key on a
// page, or its (lastUsedAt, id) when the history is sorted by last use (`sort=lastUsed`, decision
// 0059), carried in the `revokedCursor` search param. Opaque to people and programs (base64url);
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

/** Where a page of the history ends: in the order of revocation (the default), or of last use. */
export type RevokedCursor = { revokedAt: Date; id: string } | LastUsedCursor;

/** A position in the history sorted by last use, most recent first; never-used keys (null) last. */
export interface LastUsedCursor {
  lastUsedAt: Date | null;
  id: string;
}

/** Which order a cursor was made for: a cursor of one order is refused in the other. */
export const cursorOrder = (cursor: RevokedCursor) => ("revokedAt" in cursor ? "revoked" : "lastUsed");

const LAST_USED_TAG = "lastUsed";
const NEVER = "never";

const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeRevokedCursor(cursor: RevokedCursor): string {
  const text =
    "revokedAt" in cursor
      ? `${cursor.revokedAt.toISOString()}|${cursor.id}`
      : `${LAST_USED_TAG}|${cursor.lastUsedAt?.toISOString() ?? NEVER}|${cursor.id}`;
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** A real instant (no 2026-02-30) in exactly the form we write, within what PostgreSQL and the app accept. */
function instant(iso: string | undefined): Date | null {
  if (!iso || !ISO_MILLIS.test(iso)) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) || date.toISOString() !== iso || !isDateInRange(date) ? null : date;
}

function decode(value: string): RevokedCursor | null {
  // At most "lastUsed|", 24 characters of date, "|", 36 of id: 70 bytes, 94 characters of base64url.
  if (!/^[A-Za-z0-9_-]{1,120}$/.test(value)) return null;
  let decoded: string;
  try {
    decoded = atob(value.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return null;
  }
  const parts = decoded.split("|");
  if (parts.length === 3 && parts[0] === LAST_USED_TAG) {
    const [, iso, id] = parts;
    const lastUsedAt = iso === NEVER ? null : instant(iso);
    if ((iso !== NEVER && !lastUsedAt) || !isUuid(id)) return null;
    return { lastUsedAt, id: id.toLowerCase() };
  }
  const [iso, id, ...rest] = parts;
  const revokedAt = instant(iso);
  if (rest.length || !revokedAt || !isUuid(id)) return null;
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
