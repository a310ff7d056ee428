// Helpers for the API key and audit tests: RPC calls through the real handler, and owners with
// a signed-in session in a fresh organization.
import { sessionCookieName } from "~/auth/cookies.server";
import { handleRpcFetchRequest } from "~/rpc/handler.server";
import { createOrganizationWith, createUser, signedIn } from "./factories";
import type { Role } from "~/generated/prisma/enums";

export interface RpcAnswer {
  status: number;
  json: Record<string, unknown> & { code?: string; message?: string };
  text: string;
  headers: Headers;
}

export async function callRpc(
  path: string,
  options: { body?: string; input?: unknown; sessionToken?: string; authorization?: string; headers?: Record<string, string> } = {},
): Promise<RpcAnswer> {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.sessionToken) headers.cookie = `${sessionCookieName()}=${options.sessionToken}`;
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  const body = options.body ?? JSON.stringify({ json: options.input ?? {} });
  const response = await handleRpcFetchRequest(new Request(`http://localhost/rpc/${path}`, { method: "POST", headers, body }), "127.0.0.1");
  const text = await response.text();
  const parsed = JSON.parse(text) as { json: RpcAnswer["json"] };
  return { status: response.status, json: parsed.json, text, headers: response.headers };
}

export function authenticate(secret: string | undefined, scopes: string[] = [], extra: { headers?: Record<string, string> } = {}) {
  return callRpc("apiKey/authenticate", {
    authorization: secret === undefined ? undefined : `Bearer ${secret}`,
    input: { scopes },
    headers: extra.headers,
  });
}

/** A user with `role` in a new organization, signed in with that organization active. */
export async function memberOfNewOrganization(role: Role = "owner") {
  const user = await createUser();
  const organization = await createOrganizationWith([{ userId: user.id, role }]);
  const { token, auth } = await signedIn(user.id, organization.id);
  return { user, organization, token, auth };
}

/** Another signed-in member of an existing organization. */
export async function joinOrganization(organizationId: string, role: Role) {
  const { prisma } = await import("~/db.server");
  const user = await createUser();
  await prisma.membership.create({ data: { organizationId, userId: user.id, role } });
  const { token, auth } = await signedIn(user.id, organizationId);
  return { user, token, auth };
}
