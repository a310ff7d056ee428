// Timed requests to a running server, one at a time on one keep-alive connection: a GET of a
// page, or an RPC POST with a JSON body, as a signed-in browser sends them. Shared by the
// benchmarks that measure page latency (bench/audit-view.ts, bench/replica-reads.ts).
import http from "node:http";

/** One request: a GET of a page, or an RPC POST with a JSON body. */
export interface Request {
  label: string;
  path: string;
  cookie: string;
  rpc?: unknown;
}

export const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function send(base: string, request: Request): Promise<{ status: number; ms: number; body: string }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const body = request.rpc === undefined ? undefined : JSON.stringify({ json: request.rpc });
    const req = http.request(
      base + request.path,
      {
        method: body ? "POST" : "GET",
        agent,
        headers: {
          cookie: request.cookie,
          "accept-language": "en",
          ...(body ? { "content-type": "application/json", "sec-fetch-site": "same-origin" } : { accept: "text/html" }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
