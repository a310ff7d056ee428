// The typed RPC surface at /rpc (CONTRACT.md). Procedures are thin: they parse input with zod and
// call the domain modules that the pages' actions call too.
import { z } from "zod";
import { base, sessionProcedure } from "./base.server";
import { issueKey, listKeys, revokeKey, rotateKey } from "~/api-keys/api-keys.server";
import { authenticateKey, unauthorizedKey } from "~/api-keys/authenticate.server";
import { issueKeyRpcInputSchema, requestedScopesSchema } from "~/api-keys/scopes";
import { bearerSecret } from "~/api-keys/secret.server";
import { createOrganization, listOrganizationsOf, switchActiveOrganization } from "~/organizations/organizations.server";
import { organizationInputSchema } from "~/organizations/schemas";
import { UUID_PATTERN, uuidSchema } from "~/lib/ids";
import { getAuditEvent, listAuditActors, listAuditEvents, parseAuditSearchParams } from "~/audit/query.server";
import { isFresh } from "~/auth/session.server";
import { DomainError } from "~/lib/domain-error";
import { noteRequest } from "~/lib/logger.server";
import { authorizeOrganization, requireOrganizationExists } from "~/organizations/access.server";

const organization = {
  list: sessionProcedure
    .input(z.object({}).strict().optional())
    .handler(({ context }) => listOrganizationsOf(context.auth.user.id)),
  create: sessionProcedure
    .input(organizationInputSchema)
    .handler(({ context, input }) => createOrganization(context.auth, input)),
  setActive: sessionProcedure
    .input(z.object({ organizationId: uuidSchema }).strict())
    .handler(({ context, input }) => switchActiveOrganization(context.auth, input.organizationId)),
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

const keyIdInput = z.object({ organizationId: z.string(), keyId: z.string() }).strict();

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
    .handler(({ context, input }) => listKeys(context.auth, input.organizationId)),
  issue: sessionProcedure
    .input(issueKeyRpcInputSchema)
    .handler(({ context, input }) => issueKey(context.auth, input.organizationId, input)),
  rotate: sessionProcedure.input(keyIdInput).handler(({ context, input }) => rotateKey(context.auth, input.organizationId, input.keyId)),
  revoke: sessionProcedure.input(keyIdInput).handler(({ context, input }) => revokeKey(context.auth, input.organizationId, input.keyId)),
};

/** The page's query parameters as procedure input; one parser (app/audit/filters.ts) checks both. */
const auditQueryInput = z
  .object({
    organizationId: z.string().max(64),
    action: z.string().max(200).optional(),
    actorId: z.string().max(200).optional(),
    from: z.string().max(20).optional(),
    to: z.string().max(20).optional(),
    cursor: z.string().max(200).optional(),
  })
  .strict();
// An event id is required and must look like one: "" or "   " must not match "any event".
const auditEventInput = z.object({ organizationId: z.string().max(64), eventId: z.string().regex(UUID_PATTERN, "auditLog.badEvent") }).strict();
const auditActorsInput = z.object({ organizationId: z.string().max(64) }).strict();

function auditQuery({ organizationId: _, ...params }: z.infer<typeof auditQueryInput>) {
  return parseAuditSearchParams(new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)));
}

/** The audit reads, shared by the tenant and support procedures: only their guards differ. */
const auditReads = {
  list: (input: z.infer<typeof auditQueryInput>) => {
    const query = auditQuery(input);
    return listAuditEvents(input.organizationId, query.filters, query.cursor);
  },
  detail: (input: z.infer<typeof auditEventInput>) => getAuditEvent(input.organizationId, input.eventId),
  actors: (input: z.infer<typeof auditActorsInput>) => listAuditActors(input.organizationId),
};

/** Tenant audit procedures: membership, active organization and audit:view (spec, Authentication 3-4). */
const auditLog = {
  list: sessionProcedure.input(auditQueryInput).handler(async ({ context, input }) => {
    await authorizeOrganization(context.auth, input.organizationId, "audit:view");
    return auditReads.list(input);
  }),
  detail: sessionProcedure.input(auditEventInput).handler(async ({ context, input }) => {
    await authorizeOrganization(context.auth, input.organizationId, "audit:view");
    return auditReads.detail(input);
  }),
  actors: sessionProcedure.input(auditActorsInput).handler(async ({ context, input }) => {
    await authorizeOrganization(context.auth, input.organizationId, "audit:view");
    return auditReads.actors(input);
  }),
};

/** Support namespace: a fresh platform-admin session, any organization, no membership needed. */
const platformAdminProcedure = sessionProcedure.use(({ context, next }) => {
  if (!context.auth.user.isPlatformAdmin) throw new DomainError("FORBIDDEN", "platformAdminRequired");
  if (!isFresh(context.auth)) throw new DomainError("FORBIDDEN", "freshSessionRequired");
  return next();
});

const support = {
  auditLog: {
    list: platformAdminProcedure.input(auditQueryInput).handler(async ({ input }) => {
      await requireOrganizationExists(input.organizationId);
      return auditReads.list(input);
    }),
    detail: platformAdminProcedure.input(auditEventInput).handler(async ({ input }) => {
      await requireOrganizationExists(input.organizationId);
      return auditReads.detail(input);
    }),
    actors: platformAdminProcedure.input(auditActorsInput).handler(async ({ input }) => {
      await requireOrganizationExists(input.organizationId);
      return auditReads.actors(input);
    }),
  },
};

export const router = { organization, apiKey, auditLog, support };
export type Router = typeof router;
