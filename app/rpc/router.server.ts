// The typed RPC surface at /rpc (CONTRACT.md). Procedures are thin: they parse input with zod and
// call the domain modules that the pages' actions call too.
import { z } from "zod";
import { base, sessionProcedure } from "./base.server";
import { issueKey, listKeys, revokeKey, rotateKey } from "~/api-keys/api-keys.server";
import { authenticateKey, unauthorizedKey } from "~/api-keys/authenticate.server";
import { apiKeyScopeSchema, issueKeyRpcInputSchema } from "~/api-keys/scopes";
import { bearerSecret } from "~/api-keys/secret.server";
import { createOrganization, listOrganizationsOf, switchActiveOrganization } from "~/organizations/organizations.server";
import { organizationInputSchema } from "~/organizations/schemas";
import { uuidSchema } from "~/lib/ids";

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
    .input(z.object({ scopes: z.array(apiKeyScopeSchema).max(50) }).strict())
    .handler(({ context, input }) => authenticateKey(context.apiKeySecret, input.scopes)),
  list: sessionProcedure
    .input(z.object({ organizationId: z.string() }).strict())
    .handler(({ context, input }) => listKeys(context.auth, input.organizationId)),
  issue: sessionProcedure
    .input(issueKeyRpcInputSchema)
    .handler(({ context, input }) => issueKey(context.auth, input.organizationId, input)),
  rotate: sessionProcedure.input(keyIdInput).handler(({ context, input }) => rotateKey(context.auth, input.organizationId, input.keyId)),
  revoke: sessionProcedure.input(keyIdInput).handler(({ context, input }) => revokeKey(context.auth, input.organizationId, input.keyId)),
};

export const router = { organization, apiKey };
export type Router = typeof router;
