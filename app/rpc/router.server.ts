// The typed RPC surface at /rpc (docs/contract.md). Procedures are thin: they validate input
// with zod, prove the caller's access (app/access/) and call the domain functions the pages'
// actions call too. One access check per request.
import { publicOrigin } from "~/env.server";
import { z } from "zod";
import { authorizeOrganization, authorizePlatformAdmin, authorizeSupport, findSupportTarget } from "~/access/organization-access.server";
import { issueKey, listKeys, revokeKey, rotateKey } from "~/api-keys/api-keys.server";
import { authenticateKey, unauthorizedKey } from "~/api-keys/authenticate.server";
import { issueKeyRpcInputSchema, requestedScopesSchema } from "~/api-keys/schemas";
import { bearerSecret } from "~/api-keys/secret.server";
import { auditEventIdSchema, auditListInputSchema, parseAuditQuery } from "~/audit/audit-query";
import { getAuditEvent, listAuditActors, listAuditEvents } from "~/audit/query.server";
import { uuidSchema } from "~/lib/ids";
import { noteRequest } from "~/lib/logger.server";
import {
  acceptInvitation,
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
import { base, platformAdminProcedure, sessionProcedure } from "./base.server";

type Caller = Parameters<typeof authorizeOrganization>[0];
const memberManager = (auth: Caller, organizationId: string) => authorizeOrganization(auth, organizationId, "member:manage");
const organizationIdOnly = z.object({ organizationId: z.string().max(64) }).strict();
const invitationIdInput = z.object({ organizationId: z.string().max(64), invitationId: z.string().max(64) }).strict();
const memberIdInput = z.object({ organizationId: z.string().max(64), userId: z.string().max(64) }).strict();
/** The mail goes out in the inviter's language, with links to the public origin (never the request's Host). */
const mailDelivery = (context: { language: MailDelivery["language"] }): MailDelivery => ({
  language: context.language,
  origin: publicOrigin(),
});

const organization = {
  list: sessionProcedure.input(z.object({}).strict().optional()).handler(({ context }) => listOrganizationsOf(context.auth.user.id)),
  create: sessionProcedure.input(organizationInputSchema).handler(({ context, input }) => createOrganization(context.auth, input)),
  setActive: sessionProcedure
    .input(z.object({ organizationId: uuidSchema }).strict())
    .handler(({ context, input }) => switchActiveOrganization(context.auth, input.organizationId)),
  members: sessionProcedure
    .input(organizationIdOnly)
    .handler(async ({ context, input }) => listMembers(await authorizeOrganization(context.auth, input.organizationId))),
  invitations: sessionProcedure
    .input(organizationIdOnly)
    .handler(async ({ context, input }) => listPendingInvitations(await memberManager(context.auth, input.organizationId))),
  inviteMember: sessionProcedure
    .input(inviteMemberSchema.extend({ organizationId: z.string().max(64) }))
    .handler(async ({ context, input }) => {
      const access = await memberManager(context.auth, input.organizationId);
      return (await inviteMember(access, input, mailDelivery(context))).invitation;
    }),
  resendInvitation: sessionProcedure
    .input(invitationIdInput)
    .handler(async ({ context, input }) =>
      resendInvitation(await memberManager(context.auth, input.organizationId), input.invitationId, mailDelivery(context)),
    ),
  cancelInvitation: sessionProcedure
    .input(invitationIdInput)
    .handler(async ({ context, input }) => cancelInvitation(await memberManager(context.auth, input.organizationId), input.invitationId)),
  acceptInvitation: sessionProcedure
    .input(z.object({ token: invitationTokenSchema }).strict())
    .handler(({ context, input }) => acceptInvitation(context.auth, input.token)),
  updateMemberRole: sessionProcedure
    .input(memberRoleSchema.extend({ organizationId: z.string().max(64) }))
    .handler(async ({ context, input }) =>
      updateMemberRole(await memberManager(context.auth, input.organizationId), input.userId, input.role),
    ),
  removeMember: sessionProcedure.input(memberIdInput).handler(async ({ context, input }) => {
    await removeMember(await memberManager(context.auth, input.organizationId), input.userId);
    return {};
  }),
  leave: sessionProcedure.input(organizationIdOnly).handler(async ({ context, input }) => {
    await leaveOrganization(await authorizeOrganization(context.auth, input.organizationId));
    return {};
  }),
  update: sessionProcedure
    .input(organizationUpdateSchema)
    .handler(async ({ context, input: { organizationId, ...changes } }) =>
      updateOrganizationSettings(await authorizeOrganization(context.auth, organizationId, "organization:update"), changes),
    ),
  delete: sessionProcedure
    .input(z.object({ organizationId: z.string().max(64), confirmName: confirmNameSchema }).strict())
    .handler(async ({ context, input }) => {
      const access = await authorizeOrganization(context.auth, input.organizationId, "organization:delete");
      await deleteOrganization(access, context.auth, input.confirmName);
      return {};
    }),
};

/**
 * Key-authenticated: no session is loaded and no cross-site check applies (no cookie involved).
 * The key's format and checksum are checked before the input is validated, so a malformed or
 * missing key gets the same 401 as an unknown one and costs no database work.
 */
const keyProcedure = base.use(({ context, next }) => {
  const secret = bearerSecret(context.headers.get("authorization"));
  if (!secret) throw unauthorizedKey();
  return next({ context: { apiKeySecret: secret } });
});

// Key ids are not checked for shape: one we do not know is "not found", whatever it looks like.
const keyIdInput = z.object({ organizationId: z.string(), keyId: z.string() }).strict();
const keyManager = (auth: Caller, organizationId: string) => authorizeOrganization(auth, organizationId, "apiKey:manage");

const apiKey = {
  authenticate: keyProcedure
    // Documentation only: oRPC's RPC handler serves /rpc/apiKey/authenticate, nothing else.
    .route({ method: "POST", path: "/api-keys/authenticate", summary: "Prove an API key's identity and, optionally, its scopes" })
    .input(z.object({ scopes: requestedScopesSchema }).strict())
    .handler(async ({ context, input }) => {
      const identity = await authenticateKey(context.apiKeySecret, input.scopes);
      noteRequest(context.requestLog, { organizationId: identity.organizationId });
      return identity;
    }),
  list: sessionProcedure
    .input(z.object({ organizationId: z.string() }).strict())
    .handler(async ({ context, input }) => listKeys(await keyManager(context.auth, input.organizationId))),
  issue: sessionProcedure
    .input(issueKeyRpcInputSchema)
    .handler(async ({ context, input }) => issueKey(await keyManager(context.auth, input.organizationId), input)),
  rotate: sessionProcedure
    .input(keyIdInput)
    .handler(async ({ context, input }) => rotateKey(await keyManager(context.auth, input.organizationId), input.keyId)),
  revoke: sessionProcedure
    .input(keyIdInput)
    .handler(async ({ context, input }) => revokeKey(await keyManager(context.auth, input.organizationId), input.keyId)),
};

const auditEventInput = z.object({ organizationId: z.string().max(64), eventId: auditEventIdSchema }).strict();

/** Tenant audit procedures: membership, active organization and audit:view (docs/product-rules.md, Authentication 3-4). */
const auditReader = (auth: Caller, organizationId: string) => authorizeOrganization(auth, organizationId, "audit:view");
const auditLog = {
  list: sessionProcedure
    .input(auditListInputSchema)
    .handler(async ({ context, input }) => listAuditEvents(await auditReader(context.auth, input.organizationId), parseAuditQuery(input))),
  detail: sessionProcedure
    .input(auditEventInput)
    .handler(async ({ context, input }) => getAuditEvent(await auditReader(context.auth, input.organizationId), input.eventId)),
  actors: sessionProcedure
    .input(organizationIdOnly)
    .handler(async ({ context, input }) => listAuditActors(await auditReader(context.auth, input.organizationId))),
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

const support = {
  beginAccess: supportProcedure.input(beginSupportAccessInputSchema).handler(async ({ context, input: { organizationId, ...reason } }) => {
    await beginSupportAccess(await findSupportTarget(context.admin, organizationId), reason);
    return {};
  }),
  auditLog: {
    list: supportProcedure
      .input(auditListInputSchema)
      .handler(async ({ context, input }) =>
        supportAuditList(await authorizeSupport(context.admin, input.organizationId), parseAuditQuery(input)),
      ),
    detail: supportProcedure
      .input(auditEventInput)
      .handler(async ({ context, input }) =>
        supportAuditDetail(await authorizeSupport(context.admin, input.organizationId), input.eventId),
      ),
    actors: supportProcedure
      .input(organizationIdOnly)
      .handler(async ({ context, input }) => supportAuditActors(await authorizeSupport(context.admin, input.organizationId))),
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
const billingManager = (auth: Caller, organizationId: string) => authorizeOrganization(auth, organizationId, "billing:manage");
const billing = {
  get: sessionProcedure
    .input(organizationIdOnly)
    .handler(async ({ context, input }) => getBilling(await authorizeOrganization(context.auth, input.organizationId, "billing:view"))),
  checkout: sessionProcedure
    .input(z.object({ organizationId: z.string().max(64), planId: planIdSchema }).strict())
    .handler(async ({ context, input }) => checkout(await billingManager(context.auth, input.organizationId), input.planId)),
  cancel: sessionProcedure
    .input(organizationIdOnly)
    .handler(async ({ context, input }) => cancelSubscription(await billingManager(context.auth, input.organizationId))),
  resume: sessionProcedure
    .input(organizationIdOnly)
    .handler(async ({ context, input }) => resumeSubscription(await billingManager(context.auth, input.organizationId))),
};

export const router = { organization, apiKey, auditLog, support, account, billing };
export type Router = typeof router;
