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

export interface TimedAnswer {
  status: number;
  ms: number;
  body: string;
}

/** One request on the shared keep-alive connection, timed from writing it to reading the whole answer. */
export function timedRequest(
  url: string,
  options: { method: "GET" | "POST"; headers: http.OutgoingHttpHeaders; body?: string | Buffer },
): Promise<TimedAnswer> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request(url, { method: options.method, agent, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

export function send(base: string, request: Request): Promise<TimedAnswer> {
  const body = request.rpc === undefined ? undefined : JSON.stringify({ json: request.rpc });
  return timedRequest(base + request.path, {
    method: body ? "POST" : "GET",
    headers: {
      cookie: request.cookie,
      "accept-language": "en",
      ...(body ? { "content-type": "application/json", "sec-fetch-site": "same-origin" } : { accept: "text/html" }),
    },
    body,
  });
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
