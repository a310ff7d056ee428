// Reading a request body with a hard limit, chunked or not. The limit is checked against
// Content-Length before a byte is read and against the bytes as they arrive, so a 64 MiB chunked
// upload costs at most `limit` bytes of memory: reading stops at the first byte past it.
import type { IncomingMessage } from "node:http";

export type BodyRead = { ok: true; body: Buffer<ArrayBuffer> } | { ok: false; reason: "tooLarge" | "aborted" };

/** /rpc takes JSON: no Content-Type (curl -d sends a form type, most clients JSON) or a JSON one. */
export function isJsonContentType(contentType: string | undefined): boolean {
  return contentType === undefined || /^application\/json\s*(;|$)/i.test(contentType);
}

function declaredTooLarge(req: IncomingMessage, limit: number): boolean {
  const declared = req.headers["content-length"];
  return declared !== undefined && Number(declared) > limit;
}

export function readLimitedBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  if (declaredTooLarge(req, limit)) return Promise.resolve({ ok: false, reason: "tooLarge" });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyRead) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onAbort);
      req.off("aborted", onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.pause();
        finish({ ok: false, reason: "tooLarge" });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, body: Buffer.concat(chunks, size) });
    const onAbort = () => finish({ ok: false, reason: "aborted" });
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onAbort);
    req.on("aborted", onAbort);
  });
}
