// Keyset paging's two small parts: a page read with one row more than it shows (splitPage, for
// every such list), and, for the admin lists, where the next page starts: the sort key of the last
// row shown, as opaque base64url text. Not signed: these lists are read by platform admins only and are not scoped to
// a tenant, so an edited cursor can only start the same admin's list somewhere else. Anything
// that is not what we make decodes to null, which callers answer with a 400.
import { hasLoneSurrogate } from "./text";

const MAX_LENGTH = 400;

/** Text PostgreSQL takes as a parameter: no NUL, no lone surrogate (JSON can carry both). */
function isQueryableText(value: unknown): value is string {
  return typeof value === "string" && !value.includes("\u0000") && !hasLoneSurrogate(value);
}

export function encodeKeysetCursor(values: readonly string[]): string {
  return Buffer.from(JSON.stringify(values), "utf8").toString("base64url");
}

/** The `length` strings a cursor holds, or null when it is not one of ours. */
export function decodeKeysetCursor(cursor: string, length: number): string[] | null {
  if (cursor.length > MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const values: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(values) || values.length !== length || !values.every(isQueryableText)) return null;
    return values as string[];
  } catch {
    return null;
  }
}

/**
 * A page read with one row more than it shows (LIMIT size + 1): the rows to show, and the last of
 * them when more follow (the row the next page's cursor is made from), else null.
 */
export function splitPage<T>(rows: readonly T[], size: number): { page: T[]; lastBeforeMore: T | null } {
  const page = rows.slice(0, size);
  return { page, lastBeforeMore: rows.length > size ? (page.at(-1) ?? null) : null };
}
