// The domain functions as the tests call them: by session and organization id. Each wrapper first
// proves access through the real check (app/access/), exactly as a route guard or a procedure
// does, then calls the domain function with that proof; a refused check rejects the call's promise.
import {
  authorizeAuditExport,
  authorizeOrganization,
  authorizePlatformAdmin,
  authorizeSupport,
  findSupportTarget,
  type PlatformAdminAccess,
} from "~/access/organization-access.server";
import * as keys from "~/api-keys/api-keys.server";
import type { IssueKeyInput } from "~/api-keys/schemas";
import { filtersToSearchParams, parseAuditSearchParams, type AuditFilters } from "~/audit/audit-query";
import { exportAuditLog } from "~/audit/export/export-audit-log.server";
import type { NamesFrom } from "~/audit/export/sql.server";
import * as audit from "~/audit/query.server";
import type { Auth } from "~/auth/session.server";
import * as organizations from "~/organizations/organizations.server";
import type { OrganizationUpdate } from "~/organizations/schemas";
import { beginSupportAccess } from "~/support/support.server";
import { signedInPlatformAdmin } from "./factories";

const keyManager = (auth: Auth, organizationId: string) => authorizeOrganization(auth, organizationId, "apiKey:manage");

export const listKeys = async (auth: Auth, organizationId: string) => keys.listKeys(await keyManager(auth, organizationId));
export const issueKey = async (auth: Auth, organizationId: string, input: IssueKeyInput) =>
  keys.issueKey(await keyManager(auth, organizationId), input);
export const rotateKey = async (auth: Auth, organizationId: string, keyId: string) =>
  keys.rotateKey(await keyManager(auth, organizationId), keyId);
export const revokeKey = async (auth: Auth, organizationId: string, keyId: string) =>
  keys.revokeKey(await keyManager(auth, organizationId), keyId);

/** The audit reads need no member: a platform admin with a fresh session reads through support
 * access, opened once per organization with a reason (those reads are then recorded as support views). */
let supportAdmin: Promise<PlatformAdminAccess> | undefined;
async function auditReader(organizationId: string) {
  supportAdmin ??= signedInPlatformAdmin().then(({ auth }) => authorizePlatformAdmin(auth, { fresh: true }));
  const admin = await supportAdmin;
  const target = await findSupportTarget(admin, organizationId);
  if (!target.grant) await beginSupportAccess(target, { reason: "Reading the log in a test" });
  return authorizeSupport(admin, organizationId);
}

export async function listAuditEvents(organizationId: string, filters: AuditFilters, cursor?: string) {
  const query = parseAuditSearchParams(filtersToSearchParams(filters));
  return audit.listAuditEvents(await auditReader(organizationId), { ...query, ...(cursor ? { cursor } : {}) });
}
export const getAuditEvent = async (organizationId: string, eventId: string) =>
  audit.getAuditEvent(await auditReader(organizationId), eventId);
export const listAuditActors = async (organizationId: string) => audit.listAuditActors(await auditReader(organizationId));

export const updateOrganizationSettings = async (auth: Auth, organizationId: string, input: OrganizationUpdate) =>
  organizations.updateOrganizationSettings(await authorizeOrganization(auth, organizationId, "organization:update"), input);

/**
 * The NDJSON export of an organization's log as its caller downloads it, parsed, and how its rows
 * were named: the export itself (app/audit/export/export-audit-log.server.ts) behind its real
 * check, so the caller needs a plan with export and the organization active.
 * `nameDirectoryLimit: 0` makes it name the rows with the COPY's lookups (what an organization
 * with too many names for the directory gets).
 * It records `audit.exported`.
 */
export async function exportedRows(
  auth: Auth,
  organizationId: string,
  filters: AuditFilters = {},
  options: { nameDirectoryLimit?: number } = {},
): Promise<{ rows: Record<string, unknown>[]; namesFrom: NamesFrom }> {
  const query = parseAuditSearchParams(filtersToSearchParams(filters));
  const file = await exportAuditLog(await authorizeAuditExport(auth, organizationId), { format: "json", query }, options);
  return { rows: ndjsonRows(await new Response(file.body).text()), namesFrom: file.namesFrom };
}

/** An NDJSON file's objects, one per non-empty line. */
export function ndjsonRows(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
