// A deliberately dumb HTTP/1.1 client over a plain socket: it sends exactly the bytes it is told
// (any Host, any request target, any method, chunked bodies of any size), which fetch refuses to.
import { connect } from "node:net";

export interface RawRequest {
  method?: string;
  target: string;
  /** Header lines as sent; a Host header is added unless one is given (use null for none). */
  headers?: Record<string, string | string[]>;
  host?: string | null;
  body?: string | Buffer;
  /** Send the body with Transfer-Encoding: chunked, `chunkedBytes` long (zeros) or `body`. */
  chunkedBytes?: number;
}

export interface RawResponse {
  /** 0 when the server closed the connection without an answer. */
  status: number;
  head: string;
  body: Buffer;
}

export function rawRequest(port: number, request: RawRequest, timeoutMs = 20_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    socket.setMaxListeners(0);
    const received: Buffer[] = [];
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const all = Buffer.concat(received);
      const split = all.indexOf("\r\n\r\n");
      const head = (split === -1 ? all : all.subarray(0, split)).toString("latin1");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, head, body: split === -1 ? Buffer.alloc(0) : all.subarray(split + 4) });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${request.method ?? "GET"} ${request.target}`));
    }, timeoutMs);
    socket.on("data", (chunk) => received.push(chunk));
    socket.on("end", finish);
    socket.on("close", finish);
    socket.on("error", () => finish()); // a reset after the answer is still an answer
    socket.on("connect", async () => {
      const lines = [`${request.method ?? "GET"} ${request.target} HTTP/1.1`];
      if (request.host !== null) lines.push(`Host: ${request.host ?? `127.0.0.1:${port}`}`);
      for (const [name, value] of Object.entries(request.headers ?? {}))
        for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
      lines.push("Connection: close");
      const chunked = request.chunkedBytes !== undefined;
      const body = request.body === undefined ? undefined : Buffer.from(request.body);
      if (chunked) lines.push("Transfer-Encoding: chunked");
      else if (body) lines.push(`Content-Length: ${body.length}`);
      socket.write(Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"));
      if (chunked) {
        const piece = Buffer.alloc(64 * 1024, "a");
        let left = request.chunkedBytes!;
        while (left > 0 && !socket.destroyed && !settled) {
          const size = Math.min(left, piece.length);
          const ok = socket.write(Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), piece.subarray(0, size), Buffer.from("\r\n")]));
          left -= size;
          if (!ok)
            await new Promise((r) => {
              socket.once("drain", r);
              socket.once("close", r);
            });
        }
        if (!socket.destroyed) socket.write("0\r\n\r\n");
      } else if (body) {
        socket.write(body);
      }
    });
  });
}
