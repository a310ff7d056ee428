// The baseline for apiKey.authenticate: plain node:http + pg doing the same work (parse the
// Bearer header and the body, check the key's format and checksum, SHA-256, the app's statements
// for the lookup, the scope check and last used, JSON answer) and nothing else.
import { createServer, type ServerResponse } from "node:http";
import pg from "pg";
import { AUTHENTICATE_READ_SQL, AUTHENTICATE_TOUCH_SQL } from "../../app/api-keys/authenticate-sql.ts";
import { bearerSecret, hashSecret } from "../../app/api-keys/secret.server.ts";

const port = Number(process.env.PORT);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
// The same statements as the app (imported, so the two cannot drift apart).
const touch = { name: "baseline_authenticate_touch", text: AUTHENTICATE_TOUCH_SQL };
const read = { name: "baseline_authenticate_read", text: AUTHENTICATE_READ_SQL };
type Row = { id: string; organization_id: string; scopes: string[]; allowed?: boolean };

function send(res: ServerResponse, status: number, json: unknown) {
  const body = JSON.stringify({ json });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const secret = bearerSecret(req.headers.authorization);
    if (!secret) return send(res, 401, { code: "UNAUTHORIZED" });
    let scopes: unknown;
    try {
      scopes = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { json?: { scopes?: unknown } }).json?.scopes;
    } catch {
      return send(res, 400, { code: "BAD_REQUEST" });
    }
    if (!Array.isArray(scopes)) return send(res, 400, { code: "BAD_REQUEST" });
    const values = [hashSecret(secret), scopes];
    pool
      .query({ ...touch, values })
      .then(async ({ rows }) => (rows[0] as Row | undefined) ?? ((await pool.query({ ...read, values })).rows[0] as Row | undefined))
      .then(
        (row) => {
          if (!row) return send(res, 401, { code: "UNAUTHORIZED" });
          if (row.allowed === false) return send(res, 403, { code: "FORBIDDEN" });
          send(res, 200, { keyId: row.id, organizationId: row.organization_id, scopes: row.scopes });
        },
        () => send(res, 500, { code: "INTERNAL_SERVER_ERROR" }),
      );
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1", () => process.send?.("ready"));
process.on("SIGTERM", () => server.close(() => void pool.end().then(() => process.exit(0))));
