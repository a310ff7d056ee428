// Calling /rpc as a client would, through the same handler the server uses (docs/contract.md).
import { handleRpcFetchRequest } from "~/rpc/handler.server";

export interface RpcCall {
  body?: string;
  token?: string;
  headers?: Record<string, string>;
}

export async function rpc(path: string, { body = JSON.stringify({ json: {} }), token, headers = {} }: RpcCall = {}) {
  const request = new Request(`http://localhost/rpc/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { cookie: `session=${token}` } : {}), ...headers },
    body,
  });
  const response = await handleRpcFetchRequest(request, "127.0.0.1");
  return {
    status: response.status,
    headers: response.headers,
    json: ((await response.json()) as { json: unknown }).json as Record<string, unknown>,
  };
}

/** A procedure call with `input` as its JSON input. */
export function call(path: string, token: string, input: unknown, headers: Record<string, string> = {}) {
  return rpc(path, { token, body: JSON.stringify({ json: input }), headers });
}
