// The typed RPC surface at /rpc (docs/contract.md). Procedures are thin: they validate input
// with zod, prove the caller's access (app/access/; organization-scoped ones through
// organizationProcedure, which hands the handler `context.access`) and call the domain functions
// the pages' actions call too. One access check per request.
import { publicOrigin } from "~/env.server";
import { z } from "zod";
import { authorizePlatformAdmin, authorizeSupport, findSupportTarget } from "~/access/organization-access.server";
import { issueKey, listKeys, revokeKey, rotateKey } from "~/api-keys/api-keys.server";
import { findOwnKeyBySecret } from "~/api-keys/key-by-secret.server";
import { lookupRpcInputSchema } from "~/api-keys/lookup-schema";
import { decodeRevokedCursor } from "~/api-keys/revoked-cursor";
import { filtersOfListInput, listKeysInputSchema } from "~/api-keys/key-filters";
import { issueKeyRpcInputSchema, requestedScopesSchema } from "~/api-keys/schemas";
import { auditEventIdSchema, auditListInputSchema, parseAuditQuery } from "~/audit/audit-query";
import { getAuditEvent, listAuditActors, listAuditEvents } from "~/audit/query.server";
import { uuidSchema } from "~/lib/ids";
import { acceptInvitation } from "~/organizations/invitation-acceptance.server";
import {
  cancelInvitation,
  inviteMember,
  listPendingInvitations,
  resendInvitation,
  type MailDelivery,
} from "~/organizations/invitations.server";
import { leaveOrganization, listMembers, removeMember, updateMemberRole } from "~/organizations/members.server";
import {
  createOrganization,
  deleteOrganization,
  listOrganizationsOf,
  switchActiveOrganization,
  updateOrganizationSettings,
} from "~/organizations/organizations.server";
import {
  confirmNameSchema,
  invitationTokenSchema,
  inviteMemberSchema,
  memberRoleSchema,
  organizationInputSchema,
  organizationUpdateSchema,
} from "~/organizations/schemas";
import { beginSupportAccess, supportAuditActors, supportAuditDetail, supportAuditList } from "~/support/support.server";
import { beginSupportAccessInputSchema } from "~/support/schemas";
import { changePassword, listSessions, revokeSession } from "~/accounts/account-security.server";
import { changePasswordSchema, deleteAccountSchema, sessionIdSchema } from "~/auth/schemas";
import { deleteAccount } from "~/accounts/account-deletion.server";
import { cancelSubscription, checkout, getBilling, resumeSubscription } from "~/billing/billing.server";
import { planIdSchema } from "~/billing/schemas";
import { authenticateCounted, requireBearerSecret } from "./api-key-authenticate.server";
import { auditStream } from "./audit-stream-procedures.server";
import { base, noteOrganization, platformAdminProcedure, sessionProcedure } from "./base.server";
import { verifyAuditLogProcedure } from "./audit-verify-procedure.server";
import { organizationProcedure, type OrganizationInputSchema } from "./organization-procedure.server";

const organizationIdOnly = z.object({ organizationId: z.string().max(64) }).strict();
const invitationIdInput = z.object({ organizationId: z.string().max(64), invitationId: z.string().max(64) }).strict();
const memberIdInput = z.object({ organizationId: z.string().max(64), userId: z.string().max(64) }).strict();
/** The mail goes out in the inviter's language, with links to the public origin (never the request's Host). */
const mailDelivery = (context: { language: MailDelivery["language"] }): MailDelivery => ({
  language: context.language,
  origin: publicOrigin(),
});

const memberManager = organizationProcedure("member:manage");

const organization = {
  list: sessionProcedure.input(z.object({}).strict().optional()).handler(({ context }) => listOrganizationsOf(context.auth.user.id)),
  create: sessionProcedure.input(organizationInputSchema).handler(({ context, input }) => createOrganization(context.auth, input)),
  setActive: sessionProcedure
    .input(z.object({ organizationId: uuidSchema }).strict())
    .use(noteOrganization)
    .handler(({ context, input }) => switchActiveOrganization(context.auth, input.organizationId)),
  members: organizationProcedure()
    .input(organizationIdOnly)
    .handler(({ context }) => listMembers(context.access)),
  invitations: memberManager.input(organizationIdOnly).handler(({ context }) => listPendingInvitations(context.access)),
  inviteMember: memberManager
    .input(inviteMemberSchema.extend({ organizationId: z.string().max(64) }))
    .handler(async ({ context, input }) => (await inviteMember(context.access, input, mailDelivery(context))).invitation),
  resendInvitation: memberManager
    .input(invitationIdInput)
    .handler(({ context, input }) => resendInvitation(context.access, input.invitationId, mailDelivery(context))),
  cancelInvitation: memberManager
    .input(invitationIdInput)
    .handler(({ context, input }) => cancelInvitation(context.access, input.invitationId)),
  acceptInvitation: sessionProcedure
    .input(z.object({ token: invitationTokenSchema }).strict())
    .handler(({ context, input }) => acceptInvitation(context.auth, input.token)),
  updateMemberRole: memberManager
    .input(memberRoleSchema.extend({ organizationId: z.string().max(64) }))
    .handler(({ context, input }) => updateMemberRole(context.access, input.userId, input.role)),
  removeMember: memberManager.input(memberIdInput).handler(async ({ context, input }) => {
    await removeMember(context.access, input.userId);
    return {};
  }),
  leave: organizationProcedure()
    .input(organizationIdOnly)
    .handler(async ({ context }) => {
      await leaveOrganization(context.access);
      return {};
    }),
  update: organizationProcedure("organization:update")
    .input(organizationUpdateSchema)
    .handler(({ context, input }) => updateOrganizationSettings(context.access, input)),
  delete: organizationProcedure("organization:delete")
    .input(z.object({ organizationId: z.string().max(64), confirmName: confirmNameSchema }).strict())
    .handler(async ({ context, input }) => {
      await deleteOrganization(context.access, context.auth, input.confirmName);
      return {};
    }),
};

/**
 * Key-authenticated: no session is loaded and no cross-site check applies (no cookie involved).
 * The key's format and checksum are checked before the input is validated, so a malformed or
 * missing key gets the same 401 as an unknown one and costs no database work.
 */
const keyProcedure = base.use(({ context, next }) =>
  next({ context: { apiKeySecret: requireBearerSecret(context.headers.get("authorization")) } }),
);

// Key ids are not checked for shape: one we do not know is "not found", whatever it looks like.
const keyIdInput = z.object({ organizationId: z.string(), keyId: z.string() }).strict();
const keyManager = organizationProcedure("apiKey:manage");

const apiKey = {
  authenticate: keyProcedure
    // Documentation only: /rpc/apiKey/authenticate is the one route (the request edge answers the
    // plain request itself by these same rules: app/rpc/api-key-authenticate.server.ts).
    .route({ method: "POST", path: "/api-keys/authenticate", summary: "Prove an API key's identity and, optionally, its scopes" })
    .input(z.object({ scopes: requestedScopesSchema }).strict())
    .handler(({ context, input }) => authenticateCounted(context.apiKeySecret, input.scopes, context.requestLog)),
  list: keyManager
    .input(listKeysInputSchema)
    .handler(({ context, input }) =>
      listKeys(
        context.access,
        input.revokedCursor === undefined ? undefined : decodeRevokedCursor(input.revokedCursor),
        filtersOfListInput(input),
      ),
    ),
  issue: keyManager.input(issueKeyRpcInputSchema).handler(({ context, input }) => issueKey(context.access, input)),
  rotate: keyManager.input(keyIdInput).handler(({ context, input }) => rotateKey(context.access, input.keyId)),
  revoke: keyManager.input(keyIdInput).handler(({ context, input }) => revokeKey(context.access, input.keyId)),
  /** Which key of the organization a (leaked) secret is; {key: null} for every other secret alike (decision 0057). */
  lookup: keyManager
    .input(lookupRpcInputSchema)
    .handler(async ({ context, input }) => ({ key: await findOwnKeyBySecret(context.access, input.secret) })),
};

const auditEventInput = z.object({ organizationId: z.string().max(64), eventId: auditEventIdSchema }).strict();

/** Tenant audit procedures: membership, active organization and audit:view (docs/product-rules.md, Authentication 3-4). */
const auditReader = organizationProcedure("audit:view");
const auditLog = {
  list: auditReader.input(auditListInputSchema).handler(({ context, input }) => listAuditEvents(context.access, parseAuditQuery(input))),
  detail: auditReader.input(auditEventInput).handler(({ context, input }) => getAuditEvent(context.access, input.eventId)),
  actors: auditReader.input(organizationIdOnly).handler(({ context }) => listAuditActors(context.access)),
  verify: verifyAuditLogProcedure,
};

/**
 * Support namespace (docs/decisions/0026-support-console.md): it does not exist (404) for anyone
 * who is not a platform admin, signed in or not, whatever they send; that is decided before the
 * input is read. Then a fresh session and two-factor; the audit reads also need the support
 * access this session opened with a reason, and are recorded in the console's own records.
 */
const supportProcedure = platformAdminProcedure.use(({ context, next }) =>
  next({ context: { admin: authorizePlatformAdmin(context.auth, { fresh: true }) } }),
);

/** The audit reads: after the input, the support access this session opened (as context.access). */
const supportReader = {
  input: <S extends OrganizationInputSchema>(schema: S) =>
    supportProcedure
      .input(schema)
      .use(noteOrganization)
      .use(async ({ context, next }, input: { organizationId: string }) =>
        next({ context: { access: await authorizeSupport(context.admin, input.organizationId) } }),
      ),
};

const support = {
  beginAccess: supportProcedure
    .input(beginSupportAccessInputSchema)
    .use(noteOrganization)
    .handler(async ({ context, input: { organizationId, ...reason } }) => {
      await beginSupportAccess(await findSupportTarget(context.admin, organizationId), reason);
      return {};
    }),
  auditLog: {
    list: supportReader
      .input(auditListInputSchema)
      .handler(({ context, input }) => supportAuditList(context.access, parseAuditQuery(input))),
    detail: supportReader.input(auditEventInput).handler(({ context, input }) => supportAuditDetail(context.access, input.eventId)),
    actors: supportReader.input(organizationIdOnly).handler(({ context }) => supportAuditActors(context.access)),
  },
};

/** The caller's own account (docs/decisions/0027-account-security.md). */
const account = {
  changePassword: sessionProcedure.input(changePasswordSchema).handler(async ({ context, input }) => {
    await changePassword(context.auth, input);
    return {};
  }),
  sessions: sessionProcedure.input(z.object({}).strict().optional()).handler(({ context }) => listSessions(context.auth)),
  revokeSession: sessionProcedure.input(z.object({ sessionId: sessionIdSchema }).strict()).handler(async ({ context, input }) => {
    await revokeSession(context.auth, input.sessionId);
    return {};
  }),
  /** Deletes the caller's account (docs/decisions/0028-password-reset-and-account-deletion.md); its sessions end with it. */
  delete: sessionProcedure.input(deleteAccountSchema).handler(async ({ context, input }) => {
    await deleteAccount(context.auth, input);
    return {};
  }),
};

/** The organization's plan and billing state (docs/decisions/0029-billing.md): owners and admins
 * read it; only owners change it. */
const billingManager = organizationProcedure("billing:manage");
const billing = {
  get: organizationProcedure("billing:view")
    .input(organizationIdOnly)
    .handler(({ context }) => getBilling(context.access)),
  checkout: billingManager
    .input(z.object({ organizationId: z.string().max(64), planId: planIdSchema }).strict())
    .handler(({ context, input }) => checkout(context.access, input.planId)),
  cancel: billingManager.input(organizationIdOnly).handler(({ context }) => cancelSubscription(context.access)),
  resume: billingManager.input(organizationIdOnly).handler(({ context }) => resumeSubscription(context.access)),
};

export const router = { organization, apiKey, auditLog, auditStream, support, account, billing };
export type Router = typeof router;
