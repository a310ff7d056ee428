// apiKey.authenticate: the call integrators make on every request they serve, so its cost is their
// latency and our capacity (docs/decisions/0014-api-key-authenticate-hot-path.md,
// docs/decisions/0040-authenticate-profiled.md).
//
// One set of rules, two doors. The procedure in the router (router.server.ts) is what oRPC serves
// and what the integration tests call; the request edge answers the plain request, an envelope
// `{"json":{"scopes":[…known scopes…]}}` and nothing else, itself (answerPlainAuthenticate): same
// checks, same statement, same counters, the same bytes in every answer, without oRPC's decoding,
// context and middleware chain (app/edge/authenticate-door.server.ts). Anything else (an unknown
// scope, a missing field, meta, an odd envelope) goes to oRPC, which words the 400.
// tests/integration/authenticate-doors.test.ts sends both doors the same requests and compares
// every answer byte for byte.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ORPCError } from "@orpc/server";
import { API_KEY_SCOPES, type ApiKeyScope } from "~/access/api-key-scopes";
import { authenticateKey, unauthorizedKey, type AuthenticatedKey } from "~/api-keys/authenticate.server";
import { MAX_REQUESTED_SCOPES } from "~/api-keys/schemas";
import { bearerSecret, type PresentedSecret } from "~/api-keys/secret.server";
import { fixedT, languageOf } from "~/i18n/i18next.server";
import { isDomainError } from "~/lib/domain-error";
import { errorHeaders } from "~/lib/error-headers";
import { asDomainError } from "~/lib/known-errors.server";
import { logRequestError, noteRequest, type RequestLog } from "~/lib/logger.server";
import { countAuthentication } from "~/metrics/instruments.server";
import { toRpcError } from "./errors.server";

export const AUTHENTICATE_PATH = "/rpc/apiKey/authenticate";

const KNOWN_SCOPES: ReadonlySet<string> = new Set(API_KEY_SCOPES);

/**
 * The secret from the Authorization header, or the one 401 (counted) when there is none or it is
 * not well formed: a malformed key costs no database work. The procedure checks this before its
 * input, so a missing key is a 401 whatever the body says.
 */
export function requireBearerSecret(authorization: string | null | undefined): PresentedSecret {
  const secret = bearerSecret(authorization);
  if (secret) return secret;
  countAuthentication("unauthorized");
  throw unauthorizedKey();
}

/**
 * The key behind `secret` holding `scopes`, counted by outcome (keyledger_authenticate_total): ok,
 * unauthorized (unknown, expired, revoked) or forbidden (a scope not held). Failures of ours are
 * none of these and are not counted. The organization goes into the request's log line.
 */
export async function authenticateCounted(
  secret: PresentedSecret,
  scopes: readonly ApiKeyScope[],
  requestLog: RequestLog | null,
): Promise<AuthenticatedKey> {
  try {
    const identity = await authenticateKey(secret, scopes);
    countAuthentication("ok");
    noteRequest(requestLog, { organizationId: identity.organizationId });
    return identity;
  } catch (error) {
    if (isDomainError(error) && error.code === "UNAUTHORIZED") countAuthentication("unauthorized");
    if (isDomainError(error) && error.code === "FORBIDDEN") countAuthentication("forbidden");
    throw error;
  }
}

/**
 * The requested scopes when `body` is the plain request (`{"json":{"scopes":[…]}}`, scopes we
 * know, no more than the schema allows, no other field), else null: oRPC then decodes and
 * validates it and words whatever is wrong.
 */
export function plainAuthenticateScopes(body: unknown): ApiKeyScope[] | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const envelope = Object.keys(body);
  if (envelope.length !== 1 || envelope[0] !== "json") return null;
  const input = (body as { json: unknown }).json;
  if (typeof input !== "object" || input === null || Array.isArray(input)) return null;
  const fields = Object.keys(input);
  if (fields.length !== 1 || fields[0] !== "scopes") return null;
  const scopes = (input as { scopes: unknown }).scopes;
  if (!Array.isArray(scopes) || scopes.length > MAX_REQUESTED_SCOPES) return null;
  for (const scope of scopes) if (typeof scope !== "string" || !KNOWN_SCOPES.has(scope)) return null;
  return scopes as ApiKeyScope[];
}

/** An error as the procedure answers it: oRPC's error JSON, translated, with its headers. */
function errorAnswer(error: unknown, req: IncomingMessage, requestLog: RequestLog) {
  const t = fixedT(languageOf(req.headers.cookie, req.headers["accept-language"]));
  const domainError = asDomainError(error);
  const rpcError = toRpcError(error, t, domainError);
  const answer =
    rpcError instanceof ORPCError ? rpcError : new ORPCError("INTERNAL_SERVER_ERROR", { message: "Internal server error", cause: error });
  if (answer.status >= 500) logRequestError(requestLog, answer.cause ?? error, "procedure failed");
  return { status: answer.status, body: JSON.stringify({ json: answer.toJSON() }), headers: domainError ? errorHeaders(domainError) : {} };
}

/** Answers the plain request (plainAuthenticateScopes gave its scopes) as the procedure would. */
export async function answerPlainAuthenticate(
  req: IncomingMessage,
  res: ServerResponse,
  scopes: readonly ApiKeyScope[],
  requestLog: RequestLog,
  /** The edge's own headers (security, request id), written with the answer's in one go. */
  edgeHeaders: Record<string, string>,
): Promise<void> {
  let status = 200;
  let body: string;
  let headers: Record<string, string> = {};
  try {
    const identity = await authenticateCounted(requireBearerSecret(req.headers.authorization), scopes, requestLog);
    body = JSON.stringify({ json: identity });
  } catch (error) {
    ({ status, body, headers } = errorAnswer(error, req, requestLog));
  }
  if (res.destroyed) return;
  // The edge's object is this request's own: the answer's headers join it rather than a copy.
  res.writeHead(
    status,
    Object.assign(edgeHeaders, headers, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      // As every procedure's answer (app/rpc/handler.server.ts, neverCached).
      "cache-control": "no-store",
    }),
  );
  res.end(body);
}
