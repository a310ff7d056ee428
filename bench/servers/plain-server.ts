// What the two plain authenticate servers (bare.ts, baseline.ts) share: node:http, the body read
// whole, `{"json":{"scopes":[…]}}` parsed, a JSON answer with its length, one pg pool, the IPC
// "ready" the benchmark waits for, and a stop on SIGTERM. Nothing else: they are the floor.
import { createServer, type IncomingMessage } from "node:http";
import pg from "pg";

export type Answer = (status: number, json: unknown) => void;

export function servePlainAuthenticate(handle: (req: IncomingMessage, scopes: unknown[], pool: pg.Pool, answer: Answer) => void): void {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
  const server = createServer((req, res) => {
    const answer: Answer = (status, json) => {
      const body = JSON.stringify({ json });
      res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
    };
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let scopes: unknown;
      try {
        scopes = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { json?: { scopes?: unknown } }).json?.scopes;
      } catch {
        return answer(400, { code: "BAD_REQUEST" });
      }
      if (!Array.isArray(scopes)) return answer(400, { code: "BAD_REQUEST" });
      handle(req, scopes, pool, answer);
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(Number(process.env.PORT), "127.0.0.1", () => process.send?.("ready"));
  process.on("SIGTERM", () => server.close(() => void pool.end().then(() => process.exit(0))));
}
