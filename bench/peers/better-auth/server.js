// The peer: a node:http server that verifies the bearer key of each request with better-auth's
// api-key plugin, as an application using better-auth would on every API call it serves.
//   POST /verify   Authorization: Bearer <key>  →  200 {"id", "userId"} or 401 {"error"}
// verifyApiKey is a server-only endpoint of better-auth (it has no HTTP route of its own), so it is
// called through auth.api, the way better-auth's documentation shows.
// Run: DATABASE_URL=postgresql://… PORT=… node server.js. Tells its parent when it listens (an IPC
// message when forked, and a line on stdout); stops on SIGTERM.
import http from "node:http";
import { createAuth } from "./auth.js";

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("DATABASE_URL is required");
const { auth, pool } = createAuth(databaseUrl, { poolSize: Number(process.env.DATABASE_POOL_SIZE ?? 20) });

function answer(response, status, body) {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

async function verify(request, response) {
  const header = request.headers.authorization ?? "";
  const key = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
  if (!key) return answer(response, 401, { error: "missing bearer key" });
  const result = await auth.api.verifyApiKey({ body: { key } });
  if (!result.valid || !result.key) return answer(response, 401, { error: result.error?.code ?? "INVALID_API_KEY" });
  return answer(response, 200, { id: result.key.id, userId: result.key.referenceId });
}

const server = http.createServer((request, response) => {
  // The body (the benchmark sends the same small JSON to every server) is not needed: drained.
  request.resume();
  if (request.method !== "POST" || request.url !== "/verify") return answer(response, 404, { error: "not found" });
  verify(request, response).catch((error) => {
    console.error(error);
    if (!response.headersSent) answer(response, 500, { error: "internal" });
  });
});
server.keepAliveTimeout = 65_000;

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  const { address, port } = server.address();
  console.log(`better-auth peer listening on http://${address}:${port}`);
  process.send?.({ listening: port });
});

process.once("SIGTERM", () => {
  server.close(() => void pool.end().finally(() => process.exit(0)));
  // Keep-alive connections from the load generator would hold close() open.
  server.closeAllConnections();
});
