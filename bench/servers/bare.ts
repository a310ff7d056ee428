// The floor for apiKey.authenticate: the least a correct server can do with node:http and pg. Read
// the Bearer token and the body, SHA-256 the token, one `UPDATE … RETURNING` that finds an unrevoked,
// unexpired key and writes last used, a scope check, a JSON answer. No format or checksum check, no
// request id, no log line, no security headers, no metrics: what every real server adds is the
// distance measured from here. (bench/servers/baseline.ts runs the app's own statement instead.)
import { createHash } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
const statement = {
  name: "bare_authenticate",
  text: `UPDATE api_keys SET last_used_at = now()
          WHERE secret_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
      RETURNING id, organization_id, scopes`,
};

function send(res: ServerResponse, status: number, json: unknown) {
  const body = JSON.stringify({ json });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const token = req.headers.authorization?.slice("Bearer ".length);
    if (!token) return send(res, 401, { code: "UNAUTHORIZED" });
    let scopes: unknown;
    try {
      scopes = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { json?: { scopes?: unknown } }).json?.scopes;
    } catch {
      return send(res, 400, { code: "BAD_REQUEST" });
    }
    if (!Array.isArray(scopes)) return send(res, 400, { code: "BAD_REQUEST" });
    const hash = createHash("sha256").update(token).digest();
    pool.query({ ...statement, values: [hash] }).then(
      ({ rows }) => {
        const row = rows[0] as { id: string; organization_id: string; scopes: string[] } | undefined;
        if (!row) return send(res, 401, { code: "UNAUTHORIZED" });
        if (!scopes.every((s) => row.scopes.includes(s as string))) return send(res, 403, { code: "FORBIDDEN" });
        send(res, 200, { keyId: row.id, organizationId: row.organization_id, scopes: row.scopes });
      },
      () => send(res, 500, { code: "INTERNAL_SERVER_ERROR" }),
    );
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.send?.("ready"));
process.on("SIGTERM", () => server.close(() => void pool.end().then(() => process.exit(0))));
