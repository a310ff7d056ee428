// Audit-log cursors: where a page starts, opaque to clients and tamper-evident. A cursor names a
// row position (createdAt, id) and a direction, and carries an HMAC-SHA256 over that position, the
// organization and the filter set, made with a key the server keeps (server_secrets). So a cursor
// that was forged, edited, or made for another organization or other filters is refused (400)
// before any query runs, and never selects someone else's rows
// (docs/decisions/0024-audit-view-at-scale.md).
//
// Format: `<o|n><createdAt ms, base 36>.<id, 32 hex>.<MAC, 16 bytes base64url>`; `o` pages to older
// rows (Next), `n` to newer ones (Previous).
import { createHmac, timingSafeEqual } from "node:crypto";
import { DomainError } from "~/lib/domain-error";
import { hyphenatedUuid } from "~/lib/ids";
import { serverSecret } from "~/lib/server-secret.server";
import { AUDIT_FILTER_NAMES, type AuditFilters } from "./audit-query";

export type AuditDirection = "older" | "newer";

export interface AuditPosition {
  createdAt: Date;
  id: string;
  direction: AuditDirection;
}

const FORMAT = /^([on])([0-9a-z]{1,11})\.([0-9a-f]{32})\.([A-Za-z0-9_-]{22})$/;
/** 2000-01-01 .. 9999-12-31, the range every date in the app keeps to. */
const EARLIEST_MS = Date.UTC(2000, 0, 1);
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function mac(secret: Buffer, organizationId: string, filters: AuditFilters, payload: string): string {
  const scope = JSON.stringify(["audit-cursor/v1", organizationId, AUDIT_FILTER_NAMES.map((name) => filters[name] ?? null), payload]);
  return createHmac("sha256", secret).update(scope).digest().subarray(0, 16).toString("base64url");
}

/** A cursor for `position`, valid only for this organization and exactly these filters. */
export function signAuditCursor(secret: Buffer, organizationId: string, filters: AuditFilters, position: AuditPosition): string {
  const payload = `${position.direction === "older" ? "o" : "n"}${position.createdAt.getTime().toString(36)}.${position.id.replaceAll("-", "")}`;
  return `${payload}.${mac(secret, organizationId, filters, payload)}`;
}

/** The position a cursor names, or a 400 when it is not one this server made for this query. */
export function verifyAuditCursor(secret: Buffer, organizationId: string, filters: AuditFilters, cursor: string): AuditPosition {
  const refused = new DomainError("BAD_REQUEST", "auditLog.badCursor");
  const match = FORMAT.exec(cursor);
  if (!match) throw refused;
  const [, direction, time, hex, given] = match as unknown as [string, string, string, string, string];
  const expected = Buffer.from(mac(secret, organizationId, filters, `${direction}${time}.${hex}`));
  if (!timingSafeEqual(expected, Buffer.from(given))) throw refused;
  const ms = Number.parseInt(time, 36);
  if (!(ms >= EARLIEST_MS && ms <= LATEST_MS)) throw refused;
  return { createdAt: new Date(ms), id: hyphenatedUuid(hex), direction: direction === "o" ? "older" : "newer" };
}

export const auditCursorSecret = () => serverSecret("audit-cursor");
